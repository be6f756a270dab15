/**
 * OpenStack provider IDs (upstream `instances.go`): `openstack:///<server-id>`, or
 * `openstack://<region>/<server-id>` when `OS_CCM_REGIONAL=true`. The parser accepts both; a value
 * without `://` gets the `openstack://` prefix first (kubernetes#85731, so `<region>/<id>` parses),
 * and a region that differs from the configured one is an error, as upstream.
 */
export const OPENSTACK_PROVIDER_NAME = 'openstack';
/** The environment variable that switches provider IDs to the regional form. */
export const REGIONAL_PROVIDER_ID_ENVIRONMENT_VARIABLE = 'OS_CCM_REGIONAL';

const PROVIDER_ID_PATTERN = /^openstack:\/\/([^/]*)\/([^/]+)$/;

export class OpenStackProviderIdError extends Error {
  readonly kind = 'InvalidProviderId' as const;

  constructor(message: string) {
    super(message);
    this.name = 'OpenStackProviderIdError';
  }
}

export interface OpenStackServerRef {
  /** The region in the provider ID, '' in the plain form. */
  region: string;
  serverId: string;
}

/** `openstack:///<id>`, or `openstack://<region>/<id>` with `regional`. */
export function formatOpenStackProviderId(serverId: string, regional?: { region: string }): string {
  return `${OPENSTACK_PROVIDER_NAME}://${regional?.region ?? ''}/${serverId}`;
}

/** The server a provider ID names (upstream `instanceIDFromProviderID`). */
export function parseOpenStackProviderId(providerId: string): OpenStackServerRef {
  const full = providerId !== '' && !providerId.includes('://') ? `${OPENSTACK_PROVIDER_NAME}://${providerId}` : providerId;
  const match = PROVIDER_ID_PATTERN.exec(full);
  if (!match) throw new OpenStackProviderIdError(`ProviderID ${JSON.stringify(providerId)} didn't match expected format "openstack://region/InstanceID"`);
  return { region: match[1] as string, serverId: match[2] as string };
}

/** The server ID, checking the region of a regional provider ID against the configured one. */
export function serverIdOfProviderId(providerId: string, configuredRegion: string): string {
  const ref = parseOpenStackProviderId(providerId);
  if (ref.region !== '' && ref.region !== configuredRegion) {
    throw new OpenStackProviderIdError(`ProviderID ${JSON.stringify(providerId)} didn't match supported region ${JSON.stringify(configuredRegion)}`);
  }
  return ref.serverId;
}
