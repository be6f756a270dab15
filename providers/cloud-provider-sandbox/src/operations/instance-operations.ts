import type { V1Node } from '@kubernetes/client-node';
import type { CallOptions, CloudInstance, SandboxCloudPort } from '../ports/sandbox-cloud-port.js';
import { parseSandboxProviderId } from '../provider-id.js';
import { singleInstanceLookup, type InstanceLookup } from './instance-lookup.js';

export interface InstanceOperationsOptions {
  /** Only instances in this region count; '' for every region. */
  region: string;
  /** How lookups reach the cloud; default one call per lookup (`singleInstanceLookup`). */
  lookup?: InstanceLookup;
}

export class InstanceNotUniqueError extends Error {
  constructor(nodeName: string, instanceIds: string[]) {
    super(`more than one live instance is named ${JSON.stringify(nodeName)}: ${instanceIds.join(', ')}`);
    this.name = 'InstanceNotUniqueError';
  }
}

/** Prefers a live instance; a terminated one only when nothing else carries the name. */
export function pickInstanceByName(nodeName: string, candidates: readonly CloudInstance[]): CloudInstance | undefined {
  const live = candidates.filter((instance) => instance.name === nodeName && instance.state !== 'terminated');
  if (live.length > 1) throw new InstanceNotUniqueError(nodeName, live.map((instance) => instance.id));
  return live[0] ?? candidates.find((instance) => instance.name === nodeName);
}

/** Finding the cloud instance behind a Node: by `spec.providerID`, else by the Node's name. */
export class InstanceOperations {
  readonly #lookup: InstanceLookup;
  readonly #region: string;

  constructor(client: SandboxCloudPort, options: InstanceOperationsOptions) {
    this.#lookup = options.lookup ?? singleInstanceLookup(client);
    this.#region = options.region;
  }

  /** `undefined` when no instance exists (or it is in another region). */
  async findForNode(node: V1Node, options?: CallOptions): Promise<CloudInstance | undefined> {
    const providerId = node.spec?.providerID ?? '';
    if (providerId !== '') return this.#inRegion(await this.#lookup.getById(parseSandboxProviderId(providerId), options));
    const nodeName = node.metadata?.name ?? '';
    if (nodeName === '') return undefined;
    const candidates = (await this.#lookup.findByName(nodeName, options)).filter((instance) => this.#inRegion(instance) !== undefined);
    return pickInstanceByName(nodeName, candidates);
  }

  /**
   * The live instances behind many Nodes, in one batched lookup: Nodes with a providerID by id,
   * the others by name. Nodes without a live instance are left out. Keyed by Node name.
   */
  async findLiveForNodes(nodes: readonly V1Node[], options?: CallOptions): Promise<Map<string, CloudInstance>> {
    const idsByNode = new Map<string, string>();
    const namesToFind: string[] = [];
    for (const node of nodes) {
      const nodeName = node.metadata?.name ?? '';
      const providerId = node.spec?.providerID ?? '';
      if (providerId !== '') idsByNode.set(nodeName, parseSandboxProviderId(providerId));
      else if (nodeName !== '') namesToFind.push(nodeName);
    }
    const found = new Map<string, CloudInstance>();
    if (idsByNode.size === 0 && namesToFind.length === 0) return found;
    const instances = (await this.#lookup.getMany({ ids: [...new Set(idsByNode.values())], names: namesToFind }, options)).filter(
      (instance) => this.#inRegion(instance) !== undefined,
    );
    const byId = new Map(instances.map((instance) => [instance.id, instance]));
    for (const [nodeName, id] of idsByNode) {
      const instance = byId.get(id);
      if (instance !== undefined && instance.state !== 'terminated') found.set(nodeName, instance);
    }
    for (const nodeName of namesToFind) {
      const instance = pickInstanceByName(nodeName, instances);
      if (instance !== undefined && instance.state !== 'terminated') found.set(nodeName, instance);
    }
    return found;
  }

  /** The live instance named `nodeName`, if any. */
  async findLiveByName(nodeName: string, options?: CallOptions): Promise<CloudInstance | undefined> {
    const candidates = (await this.#lookup.findByName(nodeName, options)).filter((instance) => this.#inRegion(instance) !== undefined);
    const instance = pickInstanceByName(nodeName, candidates);
    return instance?.state === 'terminated' ? undefined : instance;
  }

  #inRegion(instance: CloudInstance | undefined): CloudInstance | undefined {
    if (instance === undefined || this.#region === '' || instance.region === this.#region) return instance;
    return undefined;
  }
}
