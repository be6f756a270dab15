/**
 * The cloud API operations of the sandbox cloud. They name the counters `calls()` reports and
 * the targets of `injectErrors`. Stable: drivers and benchmarks read them.
 */
export const SANDBOX_OPERATIONS = [
  'instances.get',
  'instances.list',
  'instances.batchGet',
  'loadBalancers.get',
  'loadBalancers.list',
  'loadBalancers.create',
  'loadBalancers.update',
  'loadBalancers.setBackends',
  'loadBalancers.delete',
  'routes.list',
  'routes.create',
  'routes.delete',
] as const;

export type SandboxOperation = (typeof SANDBOX_OPERATIONS)[number];

export function isSandboxOperation(value: unknown): value is SandboxOperation {
  return typeof value === 'string' && (SANDBOX_OPERATIONS as readonly string[]).includes(value);
}
