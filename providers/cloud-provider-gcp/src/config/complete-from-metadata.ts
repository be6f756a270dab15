/**
 * Upstream `newGCECloud`'s defaults from the metadata server: when gce.conf leaves `project-id`
 * or `local-zone` unset, both come from `project/project-id` and `instance/zone`; when it leaves
 * `network-name` unset, it comes from `instance/network-interfaces/0/network`. The server is not
 * asked at all when the file names all three. A value the server cannot give stops the start with
 * one message naming the keys to set.
 */
import { CloudConfigError } from '@ccm/core/config';
import { GceMetadataError, type MetadataPort } from '../ports/metadata-port.js';
import { lastPathElement, regionOfZone, type GceCloudConfig } from './read-gce-cloud-config.js';

/** The keys whose absence sends the provider to the metadata server. */
export function keysLeftToMetadata(config: GceCloudConfig): string[] {
  const missing: string[] = [];
  if (config.projectId === '') missing.push('project-id');
  if (config.localZone === '') missing.push('local-zone');
  if (config.networkName === '') missing.push('network-name');
  return missing;
}

export async function completeFromMetadata(config: GceCloudConfig, metadata: MetadataPort, fileName: string): Promise<GceCloudConfig> {
  const missing = keysLeftToMetadata(config);
  if (missing.length === 0) return config;
  try {
    let { projectId, localZone, networkName } = config;
    if (projectId === '' || localZone === '') {
      // Upstream reads both together (`getProjectAndZone`), and keeps what the file set.
      const [metadataProject, metadataZone] = await Promise.all([metadata.get('project/project-id'), metadata.get('instance/zone')]);
      if (projectId === '') projectId = metadataProject;
      if (localZone === '') localZone = lastPathElement(metadataZone);
    }
    if (networkName === '') networkName = lastPathElement(await metadata.get('instance/network-interfaces/0/network'));
    const region = regionOfZone(localZone);
    if (region === undefined) throw new GceMetadataError('instance/zone', `the zone ${JSON.stringify(localZone)} has no region`);
    return {
      ...config,
      projectId,
      networkProjectId: config.networkProjectId === '' ? projectId : config.networkProjectId,
      localZone,
      region,
      networkName,
    };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CloudConfigError([
      { fileName, message: `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set, and the metadata server (${metadata.host}) cannot supply ${missing.length === 1 ? 'it' : 'them'}: ${reason}; set ${missing.length === 1 ? 'it' : 'them'} in [global]` },
    ]);
  }
}
