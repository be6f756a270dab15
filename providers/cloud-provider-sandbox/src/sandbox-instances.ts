import { InstanceNotFoundError, type CloudCallOptions, type InstanceMetadata, type InstancesV2 } from '@ccm/core/provider';
import type { V1Node } from '@kubernetes/client-node';
import type { InstanceOperations } from './operations/instance-operations.js';
import { callOptions } from './call-options.js';
import { sandboxProviderId } from './provider-id.js';

/**
 * InstancesV2 for the sandbox: finds the instance by `spec.providerID` (`sandbox://<id>`), else
 * by the Node's name. Stopped instances exist and are shut down; terminated or missing ones do
 * not exist.
 */
export class SandboxInstances implements InstancesV2 {
  readonly #operations: InstanceOperations;

  constructor(operations: InstanceOperations) {
    this.#operations = operations;
  }

  async instanceExists(node: V1Node, options?: CloudCallOptions): Promise<boolean> {
    const instance = await this.#operations.findForNode(node, callOptions(options));
    return instance !== undefined && instance.state !== 'terminated';
  }

  async instanceShutdown(node: V1Node, options?: CloudCallOptions): Promise<boolean> {
    const instance = await this.#operations.findForNode(node, callOptions(options));
    return instance?.state === 'stopped';
  }

  async instanceMetadata(node: V1Node, options?: CloudCallOptions): Promise<InstanceMetadata> {
    const instance = await this.#operations.findForNode(node, callOptions(options));
    if (instance === undefined || instance.state === 'terminated') {
      throw new InstanceNotFoundError(`instance not found for node ${JSON.stringify(node.metadata?.name ?? '')}`);
    }
    return {
      providerId: sandboxProviderId(instance.id),
      instanceType: instance.instanceType,
      nodeAddresses: instance.addresses.map(({ type, address }) => ({ type, address })),
      zone: instance.zone,
      region: instance.region,
    };
  }
}
