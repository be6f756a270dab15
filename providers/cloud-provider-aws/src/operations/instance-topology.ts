/**
 * Network topology of instances for the `topology.k8s.aws/network-node-layer-N` node labels
 * (upstream `instanceTopologyManager`, pkg/providers/v1/topology.go): one DescribeInstanceTopology
 * per instance, and a 24 h memory of what has no topology, so those are not asked again:
 * - a region where the call is not available (`UnsupportedOperation`), not allowed
 *   (`UnauthorizedOperation`), or, unlike upstream, fails in any other way but throttling (an
 *   endpoint without the call, such as moto, answers 5xx): one log line, then no call for 24 h,
 *   so node initialization never waits or fails on this optional label;
 * - an instance type that returns nothing, unless it matches `SupportedTopologyInstanceTypePattern`
 *   (those types must have a topology: only that instance ID is remembered, as it may be starting).
 * Throttling is thrown, so the node is synced again later (upstream).
 */
import { asAwsApiError } from '../errors.js';
import type { Logger } from '@ccm/core/logging';
import type { CallOptions } from '@ccm/core/cloud';
import type { Ec2Port } from '../ports/ec2-port.js';

/** Upstream `instanceTopologyManagerCacheTimeout`. */
export const INSTANCE_TOPOLOGY_CACHE_MS = 24 * 60 * 60_000;
/** Label prefix; the layer number starts at 1 (the top of the network). */
export const LABEL_NETWORK_NODE_LAYER_PREFIX = 'topology.k8s.aws/network-node-layer-';

export class InstanceTopologyOperations {
  readonly #ec2: Ec2Port;
  readonly #requiresResponse: RegExp;
  readonly #logger: Logger;
  readonly #now: () => number;
  /** Region, instance ID or instance type -> when it stops being remembered as having no topology. */
  readonly #unsupported = new Map<string, number>();

  constructor(ec2: Ec2Port, supportedTopologyInstanceTypePattern: string, logger: Logger, now: () => number = Date.now) {
    this.#ec2 = ec2;
    this.#requiresResponse = new RegExp(supportedTopologyInstanceTypePattern);
    this.#logger = logger;
    this.#now = now;
  }

  /** Upstream `DoesInstanceTypeRequireResponse`. */
  requiresResponse(instanceType: string): boolean {
    return this.#requiresResponse.test(instanceType);
  }

  /** The instance's network nodes from the top layer down, or undefined when it has none (or they are not available). */
  async networkNodes(instanceId: string, instanceType: string, region: string, options?: CallOptions): Promise<string[] | undefined> {
    if (instanceType === '' || this.#remembered(region) || this.#remembered(instanceId) || this.#remembered(instanceType)) return undefined;
    let topologies;
    try {
      topologies = await this.#ec2.describeInstanceTopology({ instanceIds: [instanceId] }, options);
    } catch (error) {
      const apiError = asAwsApiError(error);
      if (apiError?.kind === 'Throttled') throw error;
      const code = apiError?.code ?? '';
      const detail = { region, code, error: apiError?.message ?? String(error) };
      if (code === 'UnsupportedOperation') this.#logger.info('ec2:DescribeInstanceTopology is not available in this region; no network topology labels for 24h', detail);
      else if (code === 'UnauthorizedOperation') this.#logger.warn('not authorized to perform ec2:DescribeInstanceTopology (permission missing); no network topology labels for 24h', detail);
      else this.#logger.warn('ec2:DescribeInstanceTopology failed; no network topology labels in this region for 24h', detail);
      this.#remember(region);
      return undefined;
    }
    const topology = topologies.find((candidate) => candidate.instanceId === instanceId);
    if (topology === undefined || topology.networkNodes.length === 0) {
      if (this.requiresResponse(instanceType)) {
        this.#logger.warn('instance has no network topology listed but its type may support it', { instanceId, instanceType });
        this.#remember(instanceId);
      } else {
        this.#logger.verbose(2, 'instance type has no network topology', { instanceType });
        this.#remember(instanceType);
      }
      return undefined;
    }
    return topology.networkNodes;
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
