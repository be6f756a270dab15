/**
 * InstancesV2 for vSphere: translates nodes into VM lookups and VM data into core types.
 * - the VM: by the UUID in `spec.providerID`, else by node name (guest DNS name, then IPs);
 * - exists: the VM was found; not found is `false`, unless SKIP_NODE_DELETION is present (then an
 *   error, so the node is kept); lookup failures are errors, never `false`;
 * - shutdown: the VM's power state is not poweredOn;
 * - metadata: providerID `vsphere://<uuid>`, the upstream instance type, addresses from the
 *   guest data, zone/region from tags, the `--node-labels` as additional labels.
 */
import { ANNOTATION_PROVIDED_NODE_IP } from '@ccm/core/api';
import type { Logger } from '@ccm/core/logging';
import { InstanceNotFoundError, type CloudCallOptions, type InstanceMetadata, type InstancesV2 } from '@ccm/core/provider';
import type { V1Node } from '@kubernetes/client-node';
import type { NodesConfig } from './config/vsphere-config.js';
import { VsphereProviderError } from './errors.js';
import { vsphereInstanceType } from './instance-type.js';
import { parseIp } from './net/ip-address.js';
import { metadataAddresses } from './operations/guestinfo-metadata.js';
import type { InstanceLookup, VmInstance } from './operations/instance-lookup.js';
import { selectNodeAddresses } from './operations/select-node-addresses.js';
import type { ZoneLookup } from './operations/zone-lookup.js';
import { formatVsphereProviderId, uuidFromProviderId } from './provider-id.js';

export const SKIP_NODE_DELETION = 'SKIP_NODE_DELETION';

export interface VsphereInstancesOptions {
  lookup: InstanceLookup;
  zones: ZoneLookup;
  nodes: NodesConfig;
  logger: Logger;
  environment?: Readonly<Record<string, string | undefined>>;
  /** `--node-labels`: returned as `additionalLabels` of every node (upstream `AdditionalLabels`). */
  nodeLabels?: Readonly<Record<string, string>>;
}

export class VsphereInstances implements InstancesV2 {
  readonly #lookup: InstanceLookup;
  readonly #zones: ZoneLookup;
  readonly #nodes: NodesConfig;
  readonly #logger: Logger;
  readonly #skipNodeDeletion: boolean;
  readonly #nodeLabels: Readonly<Record<string, string>>;

  constructor(options: VsphereInstancesOptions) {
    this.#lookup = options.lookup;
    this.#zones = options.zones;
    this.#nodes = options.nodes;
    this.#logger = options.logger;
    this.#nodeLabels = options.nodeLabels ?? {};
    // Set when present at all, whatever the value (even empty), as upstream's os.LookupEnv.
    this.#skipNodeDeletion = (options.environment ?? process.env)[SKIP_NODE_DELETION] !== undefined;
  }

  async instanceExists(node: V1Node, options?: CloudCallOptions): Promise<boolean> {
    const instance = await this.#find(node, options);
    if (instance !== undefined) return true;
    if (this.#skipNodeDeletion) {
      throw new VsphereProviderError('NodeDeletionSkipped', `the VM of node ${nodeName(node)} was not found; ${SKIP_NODE_DELETION} is set, so the node is kept`);
    }
    return false;
  }

  async instanceShutdown(node: V1Node, options?: CloudCallOptions): Promise<boolean> {
    const instance = await this.#find(node, options);
    return instance !== undefined && instance.vm.powerState !== 'poweredOn';
  }

  async instanceMetadata(node: V1Node, options?: CloudCallOptions): Promise<InstanceMetadata | undefined> {
    const instance = await this.#find(node, options);
    if (instance === undefined) throw new InstanceNotFoundError(`no VM found for node ${nodeName(node)} on any configured vCenter`);
    const { vm, location } = instance;
    const providerId = node.spec?.providerID || formatVsphereProviderId(vm.uuid);
    const nodeId = `${nodeName(node)} [${vm.uuid.toLowerCase()}]`;

    const metadata = metadataAddresses(vm.extraConfig);
    if (metadata.error !== undefined) this.#logger.verbose(2, 'Ignoring guestinfo.metadata', { node: nodeName(node), reason: metadata.error });
    const selection = selectNodeAddresses({
      nodeId: nodeName(node),
      guestHostName: vm.guestHostName,
      guestNet: vm.guestNet,
      metadataIps: metadata.ips,
      ipFamilies: location.vcenter.config.ipFamilies,
      nodes: this.#nodes,
    });
    if (!selection.ok) {
      throw new VsphereProviderError('NoSuitableAddress', `VM ${vm.name} of node ${nodeId} on vCenter ${JSON.stringify(location.vcenter.config.name)}: ${selection.reason}`, {
        vcenter: location.vcenter.config.name,
      });
    }
    for (const note of selection.notes) this.#logger.verbose(2, 'Node address selection', { node: nodeName(node), note });

    const { zone, region } = await this.#zones.zoneOf(location.vcenter.port, vm, nodeId, options?.signal);
    return {
      providerId,
      instanceType: vsphereInstanceType(vm.numCpu, vm.memorySizeMB, vm.guestId),
      nodeAddresses: selection.addresses,
      zone,
      region,
      ...(Object.keys(this.#nodeLabels).length === 0 ? {} : { additionalLabels: { ...this.#nodeLabels } }),
    };
  }

  /**
   * Undefined only for a providerID whose VM is gone. A node without providerID that matches
   * no VM is an error (upstream InstanceID fails): nothing proves that its VM was deleted.
   */
  async #find(node: V1Node, options?: CloudCallOptions): Promise<VmInstance | undefined> {
    const providerId = node.spec?.providerID ?? '';
    if (providerId !== '') return this.#lookup.byUuid(uuidFromProviderId(providerId), options?.signal);
    const ips = nodeIps(node);
    const instance = await this.#lookup.byNodeName(nodeName(node), ips, options?.signal);
    if (instance !== undefined) return instance;
    throw new VsphereProviderError(
      'VmNotFound',
      `no VM reports the guest hostname ${nodeName(node).toLowerCase()}${ips.length > 0 ? ` or the IP ${ips.join(', ')}` : ''} on any configured vCenter (VMware Tools must run and the hostname must equal the node name)`,
    );
  }
}

function nodeName(node: V1Node): string {
  return node.metadata?.name ?? '';
}

/** IPs to search by when the name does not match: the name itself, the provided node IP, the node's IP addresses. */
export function nodeIps(node: V1Node): string[] {
  const ips: string[] = [];
  const add = (text: string | undefined): void => {
    const trimmed = text?.trim() ?? '';
    if (trimmed !== '' && parseIp(trimmed) !== undefined && !ips.includes(trimmed)) ips.push(trimmed);
  };
  add(nodeName(node));
  for (const provided of (node.metadata?.annotations?.[ANNOTATION_PROVIDED_NODE_IP] ?? '').split(',')) add(provided);
  for (const address of node.status?.addresses ?? []) if (address.type === 'InternalIP' || address.type === 'ExternalIP') add(address.address);
  return ips;
}
