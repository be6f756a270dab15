/**
 * A snapshot of every instance carrying the cluster tag (upstream `instanceCache`), reused for
 * load balancer targets while it is younger than `maxAgeMs` and holds every asked-for ID.
 */
import type { CallOptions } from '@ccm/core/cloud';
import type { Ec2Instance, Ec2Port } from '../ports/ec2-port.js';
import type { ClusterTagging } from '../tags.js';

export interface ClusterInstancesOptions {
  maxAgeMs?: number;
  now?: () => number;
}

interface Snapshot {
  takenAt: number;
  instances: Map<string, Ec2Instance>;
}

export class ClusterInstances {
  readonly #ec2: Ec2Port;
  readonly #tagging: ClusterTagging;
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  #snapshot: Snapshot | undefined;
  #refresh: Promise<Snapshot> | undefined;

  constructor(ec2: Ec2Port, tagging: ClusterTagging, options: ClusterInstancesOptions = {}) {
    this.#ec2 = ec2;
    this.#tagging = tagging;
    this.#maxAgeMs = options.maxAgeMs ?? 10 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** The cluster-tagged instances among `instanceIds` (unknown or untagged IDs are left out). */
  async find(instanceIds: readonly string[], options?: CallOptions): Promise<Map<string, Ec2Instance>> {
    let snapshot = this.#snapshot;
    const fresh = snapshot !== undefined && this.#now() - snapshot.takenAt < this.#maxAgeMs;
    if (!snapshot || !fresh || instanceIds.some((id) => !snapshot?.instances.has(id))) snapshot = await this.#take(options);
    const found = new Map<string, Ec2Instance>();
    for (const id of instanceIds) {
      const instance = snapshot.instances.get(id);
      if (instance) found.set(id, instance);
    }
    return found;
  }

  #take(options?: CallOptions): Promise<Snapshot> {
    this.#refresh ??= (async () => {
      try {
        const takenAt = this.#now();
        const all = await this.#ec2.describeInstances({}, options);
        const snapshot = { takenAt, instances: new Map(all.filter((instance) => this.#tagging.hasClusterTag(instance.tags)).map((instance) => [instance.instanceId, instance])) };
        this.#snapshot = snapshot;
        return snapshot;
      } finally {
        this.#refresh = undefined;
      }
    })();
    return this.#refresh;
  }
}
