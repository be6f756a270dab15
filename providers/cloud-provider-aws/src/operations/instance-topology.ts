/**
 * Network topology of instances for the `topology.k8s.aws/network-node-layer-N` node labels
 * (upstream `instanceTopologyManager`, pkg/providers/v1/topology.go), and a 24 h memory of what
 * has no topology, so those are not asked again:
 * - a region where the call is not available (`UnsupportedOperation`), not allowed
 *   (`UnauthorizedOperation`), or, unlike upstream, fails in any other way but throttling (an
 *   endpoint without the call, such as moto, answers 5xx): one log line, then no call for 24 h,
 *   so node initialization never waits or fails on this optional label;
 * - an instance type that returns nothing, unless it matches `SupportedTopologyInstanceTypePattern`
 *   (those types must have a topology: only that instance ID is remembered, as it may be starting).
 * Throttling is thrown, so the node is synced again later (upstream).
 *
 * Unlike upstream (one call per instance), concurrent lookups go through core's `Coalescer`: one
 * DescribeInstanceTopology call carries up to 100 instance IDs (the API's limit; the port follows
 * NextToken), and one call is out at a time, so a region's first answer is known before another
 * call goes out: lookups that arrive meanwhile wait for it, and when it says "unavailable" they
 * (and every lookup for 24 h) make no call at all. Each node's labels and errors are those of
 * the per-instance lookup.
 */
import { AwsApiError } from '../errors.js';
import type { Logger } from '@ccm/core/logging';
import { type CallOptions, Coalescer, type CoalescerObserver } from '@ccm/core/cloud';
import type { Ec2InstanceTopology, Ec2Port } from '../ports/ec2-port.js';

/** Upstream `instanceTopologyManagerCacheTimeout`. */
export const INSTANCE_TOPOLOGY_CACHE_MS = 24 * 60 * 60_000;
/** Label prefix; the layer number starts at 1 (the top of the network). */
export const LABEL_NETWORK_NODE_LAYER_PREFIX = 'topology.k8s.aws/network-node-layer-';
/** Most instance IDs per DescribeInstanceTopology call (an EC2 API limit). */
export const MAX_TOPOLOGY_INSTANCE_IDS_PER_CALL = 100;
/**
 * How long topology lookups wait for company, and how many calls may be out at once: one, so
 * the region's first answer (supported or not) is learned by a single call; lookups arriving
 * meanwhile queue and go together in the next call (if the region has the call at all).
 */
export const INSTANCE_TOPOLOGY_COALESCING = { windowMs: 20, maxConcurrentBatches: 1 } as const;

/** One instance whose topology is asked. */
export interface TopologyKey {
  instanceId: string;
  region: string;
}

/** What a lookup learned about one instance. */
export type TopologyAnswer =
  | { kind: 'Listed'; networkNodes: string[] }
  /** The instance has no topology listed (absent from the answer, or no network nodes). */
  | { kind: 'NotListed' }
  /** The region does not answer topology calls (remembered for 24 h); nothing is known of the instance. */
  | { kind: 'RegionUnavailable' };

/** Pure: each asked instance's answer from one DescribeInstanceTopology response. */
export function topologyAnswers(instanceIds: readonly string[], topologies: readonly Ec2InstanceTopology[]): Map<string, TopologyAnswer> {
  const listed = new Map<string, string[]>();
  for (const topology of topologies) if (!listed.has(topology.instanceId)) listed.set(topology.instanceId, topology.networkNodes);
  return new Map(
    instanceIds.map((instanceId): [string, TopologyAnswer] => {
      const networkNodes = listed.get(instanceId);
      return [instanceId, networkNodes === undefined || networkNodes.length === 0 ? { kind: 'NotListed' } : { kind: 'Listed', networkNodes: [...networkNodes] }];
    }),
  );
}

export interface InstanceTopologyOptions {
  /** Metrics of the coalescer (`createCoalescerMetrics`). */
  observer?: CoalescerObserver;
}

export class InstanceTopologyOperations {
  readonly #ec2: Ec2Port;
  readonly #requiresResponse: RegExp;
  readonly #logger: Logger;
  readonly #now: () => number;
  /** Region, instance ID or instance type -> when it stops being remembered as having no topology. */
  readonly #unsupported = new Map<string, number>();
  readonly #lookups: Coalescer<TopologyKey, TopologyAnswer>;

  constructor(ec2: Ec2Port, supportedTopologyInstanceTypePattern: string, logger: Logger, now: () => number = Date.now, options: InstanceTopologyOptions = {}) {
    this.#ec2 = ec2;
    this.#requiresResponse = new RegExp(supportedTopologyInstanceTypePattern);
    this.#logger = logger;
    this.#now = now;
    this.#lookups = new Coalescer<TopologyKey, TopologyAnswer>({
      name: 'DescribeInstanceTopology',
      ...INSTANCE_TOPOLOGY_COALESCING,
      maxBatchSize: MAX_TOPOLOGY_INSTANCE_IDS_PER_CALL,
      keyId: (key) => `${key.region}/${key.instanceId}`,
      batchLoad: (keys, { signal }) => this.#describe(keys, signal),
      ...(options.observer === undefined ? {} : { observer: options.observer }),
    });
  }

  /** Upstream `DoesInstanceTypeRequireResponse`. */
  requiresResponse(instanceType: string): boolean {
    return this.#requiresResponse.test(instanceType);
  }

  /** The instance's network nodes from the top layer down, or undefined when it has none (or they are not available). */
  async networkNodes(instanceId: string, instanceType: string, region: string, options?: CallOptions): Promise<string[] | undefined> {
    if (instanceType === '' || this.#remembered(region) || this.#remembered(instanceId) || this.#remembered(instanceType)) return undefined;
    const answer = await this.#lookups.load({ instanceId, region }, options?.signal === undefined ? {} : { signal: options.signal });
    if (answer.kind === 'Listed') return answer.networkNodes;
    if (answer.kind === 'NotListed') {
      if (this.requiresResponse(instanceType)) {
        this.#logger.warn('instance has no network topology listed but its type may support it', { instanceId, instanceType });
        this.#remember(instanceId);
      } else if (!this.#remembered(instanceType)) {
        this.#logger.verbose(2, 'instance type has no network topology', { instanceType });
        this.#remember(instanceType);
      }
    }
    return undefined;
  }

  /** One call per region among the keys (in practice one region), none for a region known unavailable. */
  async #describe(keys: readonly TopologyKey[], signal: AbortSignal): Promise<Map<TopologyKey, TopologyAnswer | Error>> {
    const byRegion = new Map<string, TopologyKey[]>();
    for (const key of keys) byRegion.set(key.region, [...(byRegion.get(key.region) ?? []), key]);
    const answers = new Map<TopologyKey, TopologyAnswer | Error>();
    for (const [region, regionKeys] of byRegion) {
      if (this.#remembered(region)) {
        for (const key of regionKeys) answers.set(key, { kind: 'RegionUnavailable' });
        continue;
      }
      let topologies;
      try {
        topologies = await this.#ec2.describeInstanceTopology({ instanceIds: regionKeys.map((key) => key.instanceId) }, { signal });
      } catch (error) {
        // Every caller gave up: nothing was learned about the region.
        if (signal.aborted) throw error;
        const apiError = AwsApiError.find(error);
        if (apiError?.kind === 'Throttled') {
          const thrown = error instanceof Error ? error : new Error(String(error));
          for (const key of regionKeys) answers.set(key, thrown);
          continue;
        }
        this.#regionUnavailable(region, apiError?.code ?? '', apiError?.message ?? String(error));
        for (const key of regionKeys) answers.set(key, { kind: 'RegionUnavailable' });
        continue;
      }
      const byInstance = topologyAnswers(
        regionKeys.map((key) => key.instanceId),
        topologies,
      );
      for (const key of regionKeys) answers.set(key, byInstance.get(key.instanceId) as TopologyAnswer);
    }
    return answers;
  }

  #regionUnavailable(region: string, code: string, message: string): void {
    const detail = { region, code, error: message };
    if (code === 'UnsupportedOperation') this.#logger.info('ec2:DescribeInstanceTopology is not available in this region; no network topology labels for 24h', detail);
    else if (code === 'UnauthorizedOperation') this.#logger.warn('not authorized to perform ec2:DescribeInstanceTopology (permission missing); no network topology labels for 24h', detail);
    else this.#logger.warn('ec2:DescribeInstanceTopology failed; no network topology labels in this region for 24h', detail);
    this.#remember(region);
  }

  #remembered(key: string): boolean {
    const until = this.#unsupported.get(key);
    if (until === undefined) return false;
    if (until > this.#now()) return true;
    this.#unsupported.delete(key);
    return false;
  }

  #remember(key: string): void {
    this.#unsupported.set(key, this.#now() + INSTANCE_TOPOLOGY_CACHE_MS);
  }
}

/** `topology.k8s.aws/network-node-layer-1..N` for the network nodes, top layer first. */
export function networkNodeLabels(networkNodes: readonly string[]): Record<string, string> {
  return Object.fromEntries(networkNodes.map((networkNode, index) => [`${LABEL_NETWORK_NODE_LAYER_PREFIX}${index + 1}`, networkNode]));
}
