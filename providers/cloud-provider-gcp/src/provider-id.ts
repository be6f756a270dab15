/**
 * The GCE provider ID (upstream `gce_util.go` `providerIDRE`): `gce://<project>/<zone>/<instance>`.
 * A stable identifier: never change its format.
 */
export const GCE_PROVIDER_NAME = 'gce';

const PROVIDER_ID = /^gce:\/\/([^/]+)\/([^/]+)\/([^/]+)$/;

export interface GceInstanceReference {
  project: string;
  zone: string;
  name: string;
}

export class GceProviderIdError extends Error {
  readonly kind = 'InvalidProviderId';
  constructor(providerId: string) {
    super(`invalid GCE provider ID ${JSON.stringify(providerId)}: expected gce://<project>/<zone>/<instance>`);
    this.name = 'GceProviderIdError';
  }
}

export function formatGceProviderId(reference: GceInstanceReference): string {
  return `gce://${reference.project}/${reference.zone}/${reference.name}`;
}

export function parseGceProviderId(providerId: string): GceInstanceReference {
  const match = PROVIDER_ID.exec(providerId);
  if (match === null) throw new GceProviderIdError(providerId);
  return { project: match[1] ?? '', zone: match[2] ?? '', name: match[3] ?? '' };
}

/** Upstream `canonicalizeInstanceName`: a node name cut at its first `.` is the instance name. */
export function instanceNameOfNode(nodeName: string): string {
  const dot = nodeName.indexOf('.');
  return dot < 0 ? nodeName : nodeName.slice(0, dot);
}
