import { randomUUID } from 'node:crypto';
import { SANDBOX_TAGS } from '@ccm/cloud-provider-sandbox';
import type { SandboxCloud } from '@ccm/testing';
import type {
  CloudInventory,
  ProviderSwapFixture,
  SwapInventory,
  SwapNodeSeed,
  SwapServiceSeed,
  SwapServiceVariant,
  UpstreamServiceState,
} from '@ccm/testing/conformance';

/** Another cluster sharing the sandbox cloud: its load balancer and route must stay untouched. */
const FOREIGN_CLUSTER = 'another-cluster-sharing-the-sandbox-cloud';
/** Inside our cluster CIDR on purpose: only the cluster tag tells the route is not ours. */
const FOREIGN_ROUTE_CIDR = '10.244.250.0/24';

/** core's `defaultLoadBalancerName`, upstream `cloudprovider.DefaultLoadBalancerName`: `a` + the UID without dashes, cut to 32. */
function loadBalancerNameOf(uid: string): string {
  return `a${uid.replace(/-/g, '')}`.slice(0, 32);
}

/**
 * The swap fixture of the sandbox cloud. The sandbox has no Go CCM: its "upstream" is an earlier
 * release of our own sandbox CCM, so the fixture writes what `LoadBalancerOperations.ensure` and
 * `RouteOperations.create` make (names from core's `defaultLoadBalancerName`, tags from
 * `src/tags.ts`), and the inventory holds each resource's generation: the sandbox bumps it on
 * every change, so an adopted load balancer must not change at all.
 */
export class SandboxSwapFixture implements ProviderSwapFixture {
  /** Ownership is the config's `cluster-id`; the flag still gets a long name, as operators have. */
  readonly clusterName = 'a-cluster-name-of-more-than-forty-two-characters-for-the-swap';
  readonly #cloud: () => SandboxCloud;
  readonly #clusterId: string;
  readonly #instanceIds: (nodeName: string) => string;
  #foreignLoadBalancer: string | undefined;
  #foreignRouteId: string | undefined;

  constructor(options: { cloud: () => SandboxCloud; clusterId: string; instanceIdOf: (nodeName: string) => string }) {
    this.#cloud = options.cloud;
    this.#clusterId = options.clusterId;
    this.#instanceIds = options.instanceIdOf;
  }

  userServices(): Promise<SwapServiceVariant[]> {
    // The sandbox has neither internal load balancers nor requested IPs.
    return Promise.resolve([{ label: 'external' }, { label: 'local', externalTrafficPolicy: 'Local' }]);
  }

  async seedUpstream(input: { services: SwapServiceSeed[]; nodes: SwapNodeSeed[] }): Promise<UpstreamServiceState[]> {
    const cloud = this.#cloud();
    const backendInstanceIds = input.nodes.map((node) => this.#instanceIds(node.instance.nodeName)).sort();
    const states: UpstreamServiceState[] = [];
    for (const service of input.services) {
      // `desiredLoadBalancer` (src/operations/plan-load-balancer.ts): listeners from the ports,
      // every live node as a backend, no source ranges, the ownership tags of `ownershipTags`.
      const created = await cloud.createLoadBalancer({
        name: loadBalancerNameOf(service.uid),
        listeners: service.ports.map((port) => ({
          ...(port.name === undefined ? {} : { name: port.name }),
          protocol: port.protocol as 'TCP' | 'UDP' | 'SCTP',
          port: port.port,
          nodePort: port.nodePort,
        })),
        backendInstanceIds,
        sourceRanges: [],
        ...(service.variant.externalTrafficPolicy === 'Local' && service.healthCheckNodePort !== undefined ? { healthCheckNodePort: service.healthCheckNodePort } : {}),
        tags: {
          [SANDBOX_TAGS.cluster]: this.#clusterId,
          [SANDBOX_TAGS.service]: `${service.namespace}/${service.name}`,
          [SANDBOX_TAGS.serviceUid]: service.uid,
        },
      });
      // `loadBalancerStatus` with the default `ingress = ip`.
      states.push({ ingress: [{ ip: created.ingress.ip }], extraFinalizers: [], writtenAnnotations: {} });
    }
    for (const node of input.nodes) {
      if (node.podCidr === undefined) continue;
      // `RouteOperations.create`: the cluster and node tags; the description is core's name hint.
      await cloud.createRoute({
        destinationCidr: node.podCidr,
        targetInstanceId: this.#instanceIds(node.instance.nodeName),
        description: node.instance.nodeName,
        tags: { [SANDBOX_TAGS.cluster]: this.#clusterId, [SANDBOX_TAGS.node]: node.instance.nodeName },
      });
    }
    const foreignUid = randomUUID();
    this.#foreignLoadBalancer = loadBalancerNameOf(foreignUid);
    await cloud.createLoadBalancer({
      name: this.#foreignLoadBalancer,
      listeners: [{ protocol: 'TCP', port: 80, nodePort: 31_999 }],
      backendInstanceIds,
      tags: { [SANDBOX_TAGS.cluster]: FOREIGN_CLUSTER, [SANDBOX_TAGS.service]: 'default/theirs', [SANDBOX_TAGS.serviceUid]: foreignUid },
    });
    const firstNode = input.nodes[0];
    if (firstNode !== undefined) {
      const route = await cloud.createRoute({
        destinationCidr: FOREIGN_ROUTE_CIDR,
        targetInstanceId: this.#instanceIds(firstNode.instance.nodeName),
        description: 'a route of another cluster',
        tags: { [SANDBOX_TAGS.cluster]: FOREIGN_CLUSTER, [SANDBOX_TAGS.node]: firstNode.instance.nodeName },
      });
      this.#foreignRouteId = route.id;
    }
    return states;
  }

  async inventory(): Promise<SwapInventory> {
    const snapshot = await this.#cloud().snapshot();
    const inventory: SwapInventory = { loadBalancers: {}, routes: {}, user: {}, foreign: {} };
    const owner = (tags: Record<string, string>): 'ours' | 'foreign' | undefined =>
      tags[SANDBOX_TAGS.cluster] === this.#clusterId ? 'ours' : tags[SANDBOX_TAGS.cluster] === FOREIGN_CLUSTER ? 'foreign' : undefined;
    const put = (target: CloudInventory, key: string, value: string): void => {
      target[key] = value;
    };
    for (const loadBalancer of snapshot.loadBalancers) {
      const value = `ingress ${loadBalancer.ingress.ip}, generation ${loadBalancer.generation}`;
      const kind = owner(loadBalancer.tags);
      if (kind !== undefined) put(kind === 'ours' ? inventory.loadBalancers : inventory.foreign, `load-balancer/${loadBalancer.name}`, value);
    }
    for (const route of snapshot.routes) {
      const value = `${route.id} -> ${route.targetInstanceId}${route.blackhole ? ' (blackhole)' : ''}`;
      const kind = owner(route.tags);
      if (kind !== undefined) put(kind === 'ours' ? inventory.routes : inventory.foreign, `route/${route.destinationCidr}`, value);
    }
    return inventory;
  }

  async cleanUp(): Promise<void> {
    const cloud = this.#cloud();
    if (this.#foreignLoadBalancer !== undefined) await cloud.deleteLoadBalancer(this.#foreignLoadBalancer);
    if (this.#foreignRouteId !== undefined) await cloud.deleteRoute(this.#foreignRouteId);
    this.#foreignLoadBalancer = undefined;
    this.#foreignRouteId = undefined;
  }
}
