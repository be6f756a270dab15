/**
 * Reading instance metadata for the cloud node controller: InstancesV2 when the provider
 * supports it (Zones is then never called), otherwise legacy Instances plus optional Zones, with
 * every upstream fallback rule.
 */
import type { V1Node } from '@kubernetes/client-node';
import type { Logger } from '../../logging/logger.js';
import { getInstanceProviderId } from '../../node-helpers/instance-provider-id.js';
import { isNotImplemented } from '../../provider/cloud-errors.js';
import type { CloudProvider } from '../../provider/cloud-provider.js';
import type { CloudCallOptions, InstanceMetadata, Instances, Zone, Zones } from '../../provider/instances.js';
import type { NodeAddress } from '../../provider/node-address.js';
import { errorMessage } from '../../util/error-message.js';


async function getNodeAddressesByProviderIdOrName(instances: Instances, providerId: string, nodeName: string, options?: CloudCallOptions): Promise<NodeAddress[]> {
  try {
    return await instances.nodeAddressesByProviderId(providerId, options);
  } catch (providerIdError) {
    try {
      return await instances.nodeAddresses(nodeName, options);
    } catch (nameError) {
      throw new Error(`error fetching node by provider ID: ${errorMessage(providerIdError)}, and error by node name: ${errorMessage(nameError)}`, { cause: nameError });
    }
  }
}

async function getInstanceTypeByProviderIdOrName(instances: Instances, providerId: string, nodeName: string, options?: CloudCallOptions): Promise<string> {
  try {
    return await instances.instanceTypeByProviderId(providerId, options);
  } catch (providerIdError) {
    try {
      return await instances.instanceType(nodeName, options);
    } catch (nameError) {
      throw new Error(`InstanceType: Error fetching by providerID: ${errorMessage(providerIdError)} Error fetching by NodeName: ${errorMessage(nameError)}`, { cause: nameError });
    }
  }
}

async function getZoneByProviderIdOrName(zones: Zones, providerId: string, nodeName: string, options?: CloudCallOptions): Promise<Zone> {
  try {
    return await zones.getZoneByProviderId(providerId, options);
  } catch (providerIdError) {
    try {
      return await zones.getZoneByNodeName(nodeName, options);
    } catch (nameError) {
      throw new Error(`Zone: Error fetching by providerID: ${errorMessage(providerIdError)} Error fetching by NodeName: ${errorMessage(nameError)}`, { cause: nameError });
    }
  }
}

/**
 * Upstream `getInstanceMetadata`. `undefined` (V2 only) means "skip this node without requeue".
 * A provider ID is required, except when the V1 `instanceId` answers NotImplemented.
 */
export async function getInstanceMetadata(cloud: CloudProvider, node: V1Node, logger: Logger, options?: CloudCallOptions): Promise<InstanceMetadata | undefined> {
  const nodeName = node.metadata?.name ?? '';
  let providerId = node.spec?.providerID ?? '';
  const instancesV2 = cloud.instancesV2?.();
  if (instancesV2 !== undefined) {
    const metadata = await instancesV2.instanceMetadata(node, options);
    if (metadata === undefined || metadata.providerId !== '') return metadata;
    // spec.providerID is immutable and needed by other controllers: never untaint without one
    // (kubernetes/kubernetes#123024).
    if (providerId === '') throw new Error(`cloud provider does not set node provider ID for node ${nodeName}`);
    return { ...metadata, providerId };
  }

  const instances = cloud.instances?.();
  if (instances === undefined) throw new Error('failed to get instances from cloud provider');
  if (providerId === '') {
    try {
      providerId = await getInstanceProviderId(cloud, nodeName, options);
    } catch (error) {
      // The only case where a node may be initialized without a provider ID.
      if (!isNotImplemented(error)) throw error;
      logger.warn(`cloud provider does not set node provider ID, using node name to discover node ${nodeName}`, { node: nodeName });
    }
  }

  const nodeAddresses = await getNodeAddressesByProviderIdOrName(instances, providerId, nodeName, options);
  const instanceType = await getInstanceTypeByProviderIdOrName(instances, providerId, nodeName, options);
  const metadata: InstanceMetadata = { providerId, instanceType, nodeAddresses, zone: '', region: '' };

  const zones = cloud.zones?.();
  if (zones === undefined) return metadata;
  let zone: Zone;
  try {
    zone = await getZoneByProviderIdOrName(zones, providerId, nodeName, options);
  } catch (error) {
    throw new Error(`failed to get zone from cloud provider: ${errorMessage(error)}`, { cause: error });
  }
  if (zone.failureDomain !== '') metadata.zone = zone.failureDomain;
  if (zone.region !== '') metadata.region = zone.region;
  return metadata;
}

/**
 * Upstream `getInstanceNodeAddresses`: the addresses only. V2 calls `instanceMetadata`; V1 asks
 * by `spec.providerID` then by name and never fetches the instance type.
 */
export async function getInstanceNodeAddresses(cloud: CloudProvider, node: V1Node, options?: CloudCallOptions): Promise<NodeAddress[] | undefined> {
  const instancesV2 = cloud.instancesV2?.();
  if (instancesV2 !== undefined) return (await instancesV2.instanceMetadata(node, options))?.nodeAddresses;
  const instances = cloud.instances?.();
  if (instances === undefined) throw new Error('failed to get instances from cloud provider');
  return getNodeAddressesByProviderIdOrName(instances, node.spec?.providerID ?? '', node.metadata?.name ?? '', options);
}
