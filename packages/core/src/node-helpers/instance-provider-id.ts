/**
 * Upstream `cloudprovider.GetInstanceProviderID`: `<providerName>://<InstanceID(nodeName)>` through
 * the legacy Instances interface. NotImplemented and InstanceNotFound errors are passed through
 * unchanged (callers compare their kind); any other error is wrapped.
 */
import { isInstanceNotFound, isNotImplemented } from '../provider/cloud-errors.js';
import type { CloudProvider } from '../provider/cloud-provider.js';
import type { CloudCallOptions } from '../provider/instances.js';
import { formatProviderId } from '../provider/provider-id.js';
import { errorMessage } from '../util/error-message.js';

export async function getInstanceProviderId(cloud: CloudProvider, nodeName: string, options?: CloudCallOptions): Promise<string> {
  const instances = cloud.instances?.();
  if (instances === undefined) throw new Error('failed to get instances from cloud provider');
  let instanceId: string;
  try {
    instanceId = await instances.instanceId(nodeName, options);
  } catch (error) {
    if (isNotImplemented(error) || isInstanceNotFound(error)) throw error;
    const reason = errorMessage(error);
    throw new Error(`failed to get instance ID from cloud provider: ${reason}`, { cause: error });
  }
  return formatProviderId(cloud.providerName, instanceId);
}
