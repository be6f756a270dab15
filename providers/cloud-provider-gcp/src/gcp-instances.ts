/**
 * InstancesV2 of the GCE provider (upstream `gce_instances.go`), translating nodes into instance
 * lookups: provider ID `gce://<project>/<zone>/<instance>`, addresses, machine type, zone and
 * region. Existence ignores the status, as upstream (a TERMINATED instance still exists);
 * shutdown is read from the status (upstream answers NotImplemented).
 */
import type { V1Node } from '@kubernetes/client-node';
import { InstanceNotFoundError, type CloudCallOptions, type InstanceMetadata, type InstancesV2 } from '@ccm/core/provider';
import type { StackType } from './config/read-gce-cloud-config.js';
import { regionOfZone } from './config/read-gce-cloud-config.js';
import type { InstanceLocator } from './operations/instance-locator.js';
import { nodeAddressesOf } from './operations/node-addresses.js';
import { formatGceProviderId, parseGceProviderId } from './provider-id.js';

/** Instance statuses that mean "shut down" (stopping, stopped, suspended). */
export const SHUTDOWN_STATUSES: readonly string[] = ['STOPPING', 'STOPPED', 'TERMINATED', 'SUSPENDING', 'SUSPENDED'];

export interface GcpInstancesDependencies {
  locator: InstanceLocator;
  project: string;
  stackType: StackType;
}

export class GcpInstances implements InstancesV2 {
  readonly #dependencies: GcpInstancesDependencies;

  constructor(dependencies: GcpInstancesDependencies) {
    this.#dependencies = dependencies;
  }

  async instanceExists(node: V1Node, options?: CloudCallOptions): Promise<boolean> {
    return (await this.#dependencies.locator.instanceOfNode(node, options)) !== undefined;
  }

  async instanceShutdown(node: V1Node, options?: CloudCallOptions): Promise<boolean> {
    const instance = await this.#dependencies.locator.instanceOfNode(node, options);
    return instance !== undefined && SHUTDOWN_STATUSES.includes(instance.status);
  }

  async instanceMetadata(node: V1Node, options?: CloudCallOptions): Promise<InstanceMetadata> {
    const instance = await this.#dependencies.locator.instanceOfNode(node, options);
    if (instance === undefined) throw new InstanceNotFoundError(`no instance found for node ${node.metadata?.name ?? ''}`);
    const providerId = node.spec?.providerID ?? '';
    const project = providerId === '' ? this.#dependencies.project : parseGceProviderId(providerId).project;
    return {
      providerId: formatGceProviderId({ project, zone: instance.zone, name: instance.name }),
      instanceType: instance.machineType,
      nodeAddresses: nodeAddressesOf(instance, this.#dependencies.stackType),
      zone: instance.zone,
      region: regionOfZone(instance.zone) ?? '',
    };
  }
}
