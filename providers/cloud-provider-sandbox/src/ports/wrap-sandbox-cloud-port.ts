import { SANDBOX_CLOUD_PORT_OPERATIONS, type SandboxCloudPort, type SandboxCloudPortOperation } from './sandbox-cloud-port.js';

/**
 * Runs one port call; decorators (retries, metrics) are written as one of these. `signal` is the
 * caller's abort signal (from the call's options), when it passed one.
 */
export type SandboxCallWrapper = <T>(operation: SandboxCloudPortOperation, call: () => Promise<T>, signal?: AbortSignal) => Promise<T>;

/** Every port method takes its `CallOptions` last. */
function signalOf(parameters: readonly unknown[]): AbortSignal | undefined {
  const last = parameters.at(-1);
  const signal = typeof last === 'object' && last !== null ? (last as { signal?: unknown }).signal : undefined;
  return signal instanceof AbortSignal ? signal : undefined;
}

/** A `SandboxCloudPort` whose every call goes through `around`: the same port, decorated. */
export function wrapSandboxCloudPort(client: SandboxCloudPort, around: SandboxCallWrapper): SandboxCloudPort {
  const wrapped: Partial<Record<SandboxCloudPortOperation, unknown>> = {};
  for (const operation of SANDBOX_CLOUD_PORT_OPERATIONS) {
    const method = client[operation] as (...parameters: unknown[]) => Promise<unknown>;
    wrapped[operation] = (...parameters: unknown[]) => around(operation, () => method.apply(client, parameters), signalOf(parameters));
  }
  return wrapped as SandboxCloudPort;
}
