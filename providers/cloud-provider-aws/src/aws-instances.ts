/**
 * InstancesV2 for AWS: translates Node objects into instance lookups (upstream `instances_v2.go`).
 */
import type { V1Node } from '@ccm/core/kube';
import type { Logger } from '@ccm/core/logging';
import { InstanceNotFoundError, type CloudCallOptions, type InstanceMetadata, type InstancesV2 } from '@ccm/core/provider';
import type { InstanceLocator } from './operations/instance-locator.js';
import { LABEL_NETWORK_NODE_LAYER_PREFIX, networkNodeLabels, type InstanceTopologyOperations } from './operations/instance-topology.js';
import { nodeAddressesOf, type IpFamily } from './operations/node-addresses.js';
import type { ZoneCache } from './operations/zone-cache.js';
import { formatAwsProviderId } from './provider-id.js';

/**
 * Upstream `instanceExistsGracePeriod`: EC2 may not list a just-launched instance yet, so a Node
 * younger than this is assumed to exist (no call), and the node lifecycle controller cannot delete
 * it during that window.
 */
export const INSTANCE_EXISTS_GRACE_PERIOD_MS = 2 * 60_000;

/** Additional node label with the AZ ID (`usw2-az1`), stable across accounts. */
export const LABEL_ZONE_ID = 'topology.k8s.aws/zone-id';

export interface AwsInstancesDependencies {
  locator: InstanceLocator;
  zones: ZoneCache;
  /** The CCM's region (configured or discovered); upstream reports it, not one derived from the AZ. */
  region: string;
  nodeIpFamilies: readonly IpFamily[];
  /** Network topology labels; absent in tests that do not need them. */
  topology?: InstanceTopologyOperations;
  logger: Logger;
  /** Clock for the grace period; `Date.now` unless a test sets it. */
  now?: () => number;
  /** Default {@link INSTANCE_EXISTS_GRACE_PERIOD_MS}, as upstream (only tests change it). */
  instanceExistsGracePeriodMs?: number;
}

export class AwsInstances implements InstancesV2 {
  readonly #dependencies: AwsInstancesDependencies;
  /** Zones already reported as having no zone ID: one warning per zone, not per status update. */
  readonly #zonesWithoutId = new Set<string>();

  constructor(dependencies: AwsInstancesDependencies) {
    this.#dependencies = dependencies;
  }

  /** False only when EC2 does not know the instance or it is terminated; true for a Node younger than the grace period. */
  async instanceExists(node: V1Node, options?: CloudCallOptions): Promise<boolean> {
    const created = Date.parse(String(node.metadata?.creationTimestamp ?? ''));
    const now = this.#dependencies.now ?? Date.now;
    const gracePeriodMs = this.#dependencies.instanceExistsGracePeriodMs ?? INSTANCE_EXISTS_GRACE_PERIOD_MS;
    if (Number.isFinite(created) && now() - created < gracePeriodMs) return true;
    const { instanceId, instance } = await this.#dependencies.locator.instanceOfNode(node, options);
    if (!instance || instance.state === undefined) return false;
    if (instance.state === 'terminated') {
      this.#dependencies.logger.verbose(2, 'instance is terminated', { node: node.metadata?.name, instanceId });
      return false;
    }
    return true;
  }

  /** True only for `stopped` (upstream); an unknown instance is not "shut down". */
  async instanceShutdown(node: V1Node, options?: CloudCallOptions): Promise<boolean> {
    const { instance } = await this.#dependencies.locator.instanceOfNode(node, options);
    return instance?.state === 'stopped';
  }

  async instanceMetadata(node: V1Node, options?: CloudCallOptions): Promise<InstanceMetadata> {
    const { locator, zones, region, nodeIpFamilies, logger } = this.#dependencies;
    const { instanceId, instance } = await locator.instanceOfNode(node, options);
    if (!instance) throw new InstanceNotFoundError(`instance not found: ${instanceId}`);
    const zone = instance.availabilityZone ?? '';
    const existingProviderId = node.spec?.providerID ?? '';
    const metadata: InstanceMetadata = {
      providerId: existingProviderId !== '' ? existingProviderId : formatAwsProviderId(zone, instanceId),
      instanceType: instance.instanceType ?? '',
      nodeAddresses: nodeAddressesOf(instance, nodeIpFamilies),
      zone,
      region,
    };
    const labels = node.metadata?.labels ?? {};
    if (zone !== '' && !labels[LABEL_ZONE_ID]) {
      const zoneInfo = await zones.zone(zone, options);
      if (zoneInfo?.zoneId) metadata.additionalLabels = { [LABEL_ZONE_ID]: zoneInfo.zoneId };
      else if (!this.#zonesWithoutId.has(zone)) {
        // Upstream fails the node's metadata here (the node stays uninitialized); the label is optional.
        this.#zonesWithoutId.add(zone);
        logger.warn(`availability zone has no zone ID; nodes in it get no ${LABEL_ZONE_ID} label`, { zone, instanceId });
      }
    }
    // A running instance keeps its place in the network: a node labeled already is not asked again.
    const topology = this.#dependencies.topology;
    if (topology !== undefined && labels[`${LABEL_NETWORK_NODE_LAYER_PREFIX}1`] === undefined) {
      const networkNodes = await topology.networkNodes(instanceId, metadata.instanceType, region, options);
      if (networkNodes !== undefined) metadata.additionalLabels = { ...metadata.additionalLabels, ...networkNodeLabels(networkNodes) };
    }
    return metadata;
  }
}
