import { SANDBOX_CLOUD_CLIENT_OPERATIONS, type SandboxCloudClient, type SandboxCloudClientOperation } from './sandbox-cloud-client.js';

/**
 * Runs one port call; decorators (retries, metrics) are written as one of these. `signal` is the
 * caller's abort signal (from the call's options), when it passed one.
 */
export type SandboxCallWrapper = <T>(operation: SandboxCloudClientOperation, call: () => Promise<T>, signal?: AbortSignal) => Promise<T>;

/** Every port method takes its `CallOptions` last. */
function signalOf(parameters: readonly unknown[]): AbortSignal | undefined {
  const last = parameters.at(-1);
  const signal = typeof last === 'object' && last !== null ? (last as { signal?: unknown }).signal : undefined;
  return signal instanceof AbortSignal ? signal : undefined;
}

/** A `SandboxCloudClient` whose every call goes through `around`: the same port, decorated. */
export function wrapSandboxCloudClient(client: SandboxCloudClient, around: SandboxCallWrapper): SandboxCloudClient {
  const wrapped: Partial<Record<SandboxCloudClientOperation, unknown>> = {};
  for (const operation of SANDBOX_CLOUD_CLIENT_OPERATIONS) {
    const method = client[operation] as (...parameters: unknown[]) => Promise<unknown>;
    wrapped[operation] = (...parameters: unknown[]) => around(operation, () => method.apply(client, parameters), signalOf(parameters));
  }
  return wrapped as SandboxCloudClient;
}
