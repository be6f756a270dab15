/**
 * vSphere provider IDs: `vsphere://<BIOS UUID>`. Stable: never change the format.
 */
export const VSPHERE_PROVIDER_NAME = 'vsphere';
const PREFIX = `${VSPHERE_PROVIDER_NAME}://`;

/**
 * Upstream `instancesV2.getProviderID`: the prefix and the VM's `summary.config.uuid` as vCenter
 * reports it, case kept (upstream's node manager stores it unchanged), so a node gets the
 * providerID the upstream CPI would have written. Lookups read it through `uuidFromProviderId`.
 */
export function formatVsphereProviderId(uuid: string): string {
  return `${PREFIX}${uuid}`;
}

/** Upstream GetUUIDFromProviderID: strips `vsphere://`, trims and lower-cases. */
export function uuidFromProviderId(providerId: string): string {
  const withoutPrefix = providerId.startsWith(PREFIX) ? providerId.slice(PREFIX.length) : providerId;
  return withoutPrefix.trim().toLowerCase();
}

/**
 * Upstream ConvertK8sUUIDtoNormal: the SMBIOS byte order swap of the first three groups
 * (Kubernetes `56492e42-22ad-3911-...` <-> VMware `422e4956-ad22-1139-...`). The swap is its
 * own inverse. Strings shorter than a UUID are returned unchanged.
 */
export function convertK8sUuidToNormal(uuid: string): string {
  if (uuid.length < 36) return uuid;
  const pairs = (start: number, end: number): string[] => {
    const result: string[] = [];
    for (let index = start; index < end; index += 2) result.push(uuid.slice(index, index + 2));
    return result;
  };
  const first = pairs(0, 8).reverse().join('');
  const second = pairs(9, 13).reverse().join('');
  const third = pairs(14, 18).reverse().join('');
  return `${first}-${second}-${third}-${uuid.slice(19, 23)}-${uuid.slice(24, 36)}`.trim().toLowerCase();
}
