import { formatProviderId, parseProviderId } from '@ccm/core/provider';

/** The provider name: IDs are `sandbox://<instance-id>`. Stable: never change it. */
export const SANDBOX_PROVIDER_NAME = 'sandbox';

export function sandboxProviderId(instanceId: string): string {
  return formatProviderId(SANDBOX_PROVIDER_NAME, instanceId);
}

export class SandboxProviderIdError extends Error {
  readonly providerId: string;

  constructor(providerId: string, reason: string, options?: { cause?: unknown }) {
    super(`provider ID ${JSON.stringify(providerId)} is not a sandbox provider ID (sandbox://<instance-id>): ${reason}`, options);
    this.name = 'SandboxProviderIdError';
    this.providerId = providerId;
  }
}

/** The instance id of `sandbox://<id>`; throws `SandboxProviderIdError` for anything else. */
export function parseSandboxProviderId(providerId: string): string {
  let parsed: ReturnType<typeof parseProviderId>;
  try {
    parsed = parseProviderId(providerId);
  } catch (error) {
    throw new SandboxProviderIdError(providerId, 'malformed', { cause: error });
  }
  if (parsed.providerName !== SANDBOX_PROVIDER_NAME) throw new SandboxProviderIdError(providerId, `it belongs to provider ${JSON.stringify(parsed.providerName)}`);
  if (parsed.instanceId.includes('/')) throw new SandboxProviderIdError(providerId, 'the instance id may not contain "/"');
  return parsed.instanceId;
}
