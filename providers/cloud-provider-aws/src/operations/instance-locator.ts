/**
 * Node -> EC2 instance resolution (upstream `getProviderID`, `nodeNameToInstanceID`,
 * `findInstanceByNodeName`):
 * 1. `spec.providerID` (or the node directory's copy of it);
 * 2. a resource-based name `i-xxxx[.domain]`;
 * 3. DescribeInstances by private DNS name (non-terminated, carrying the cluster tag; more than
 *    one match is an error, none is InstanceNotFound).
 *
 * Every path answers with the described instance, not only its ID, so a Node without a provider
 * ID costs one DescribeInstances (shared with its neighbours through the coalescer), never a
 * second one by ID.
 */
import type { V1Node } from '@ccm/core/kube';
import { InstanceNotFoundError } from '@ccm/core/provider';
import { CloudStateError } from '../errors.js';
import type { CallOptions } from '@ccm/core/cloud';
import type { Ec2Instance } from '../ports/ec2-port.js';
import { instanceIdFromNodeName, parseAwsProviderId } from '../provider-id.js';
import type { ClusterTagging } from '../tags.js';
import type { InstanceLookup } from './instance-lookup.js';
import type { NodeDirectory } from './node-directory.js';

/** What `instanceOfNode` found: the ID always, the instance when EC2 knows it. */
export interface LocatedInstance {
  instanceId: string;
  instance: Ec2Instance | undefined;
}

export class InstanceLocator {
  readonly #lookup: InstanceLookup;
  readonly #tagging: ClusterTagging;
  readonly #directory: () => NodeDirectory | undefined;

  constructor(lookup: InstanceLookup, tagging: ClusterTagging, directory: () => NodeDirectory | undefined = () => undefined) {
    this.#lookup = lookup;
    this.#tagging = tagging;
    this.#directory = directory;
  }

  get lookup(): InstanceLookup {
    return this.#lookup;
  }

  /**
   * The instance behind a Node object. With a provider ID: its instance, or `instance: undefined`
   * when EC2 does not know the ID; without one: the instance found by name (throws
   * InstanceNotFoundError when there is none). Also throws AwsProviderIdError or CloudStateError.
   */
  async instanceOfNode(node: V1Node, options?: CallOptions): Promise<LocatedInstance> {
    const providerId = node.spec?.providerID ?? '';
    if (providerId !== '') {
      const instanceId = parseAwsProviderId(providerId);
      return { instanceId, instance: await this.#lookup.byId(instanceId, options) };
    }
    const instance = await this.instanceOfNodeName(node.metadata?.name ?? '', options);
    return { instanceId: instance.instanceId, instance };
  }

  /** The instance behind a Node name. */
  async instanceOfNodeName(nodeName: string, options?: CallOptions): Promise<Ec2Instance> {
    const providerId = this.#directory()?.providerIdOfNode(nodeName);
    const instanceId = providerId ? parseAwsProviderId(providerId) : instanceIdFromNodeName(nodeName);
    if (instanceId !== undefined) {
      const instance = await this.#lookup.byId(instanceId, options);
      if (!instance) throw new InstanceNotFoundError(`instance not found: ${instanceId} (node ${nodeName})`);
      return instance;
    }
    if (nodeName === '') throw new InstanceNotFoundError('instance not found: node has no name and no provider ID');
    const matches = (await this.#lookup.byPrivateDnsName(nodeName, options)).filter((instance) => this.#tagging.hasClusterTag(instance.tags));
    if (matches.length === 0) throw new InstanceNotFoundError(`instance not found: no instance with private DNS name ${nodeName}`);
    if (matches.length > 1) {
      throw new CloudStateError(`found multiple instances with private DNS name ${nodeName}: ${matches.map((instance) => instance.instanceId).join(', ')}`);
    }
    return matches[0] as Ec2Instance;
  }

  /** Node name of an instance: the node directory's answer, else the private DNS name (upstream). */
  nodeNameOfInstance(instance: Ec2Instance): string {
    return this.#directory()?.nodeNameOfInstance(instance.instanceId) ?? instance.privateDnsName ?? '';
  }
}
