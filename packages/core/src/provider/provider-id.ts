/** Provider IDs are `<providerName>://<instanceId>`. Stable identifiers: never change the format. */
export function formatProviderId(providerName: string, instanceId: string): string {
  return `${providerName}://${instanceId}`;
}

export interface ParsedProviderId {
  providerName: string;
  instanceId: string;
}

export class ProviderIdError extends Error {
  readonly providerId: string;
  constructor(providerId: string, reason: string) {
    super(`invalid provider ID ${JSON.stringify(providerId)}: ${reason}`);
    this.name = 'ProviderIdError';
    this.providerId = providerId;
  }
}

/** Splits `<name>://<id>`; throws ProviderIdError when the scheme separator or a part is missing. */
export function parseProviderId(providerId: string): ParsedProviderId {
  const separator = providerId.indexOf('://');
  if (separator <= 0) throw new ProviderIdError(providerId, 'expected <provider>://<instance-id>');
  const instanceId = providerId.slice(separator + 3);
  if (instanceId === '') throw new ProviderIdError(providerId, 'empty instance ID');
  return { providerName: providerId.slice(0, separator), instanceId };
}
