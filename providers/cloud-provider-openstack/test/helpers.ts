/** Builders and a harness wiring the OpenStack provider to its in-memory fakes. */
import { KubeConfig } from '@kubernetes/client-node';
import { createMetricsRegistry } from '@ccm/core/app';
import type { SharedInformer, V1Node } from '@ccm/core/kube';
import { silentLogger, type Logger } from '@ccm/core/logging';
import type { CloudInitializeContext } from '@ccm/core/provider';
import { createOpenStackCloud, type OpenStackCloud, type OpenStackCloudOptions } from '../src/openstack-cloud.js';
import { FakeCompute } from './fakes/fake-compute.js';
import { FakeNetwork } from './fakes/fake-network.js';

export const REGION = 'RegionOne';
export const ROUTER_ID = 'router-1';
export const NODE_NETWORK = 'nodes';
export const NODE_NETWORK_ID = 'net-nodes';

/** A minimal cloud.conf (password auth, project by name). */
export function cloudConf(extra = ''): string {
  return `[Global]\nauth-url = https://keystone.example:5000/v3\nusername = ccm\npassword = secret-password\nuser-domain-name = Default\ntenant-name = k8s\ntenant-domain-name = Default\nregion = ${REGION}\n${extra}`;
}

export function makeNode(name: string, options: { providerId?: string; internalIps?: string[] } = {}): V1Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name },
    spec: options.providerId === undefined ? {} : { providerID: options.providerId },
    status: { addresses: (options.internalIps ?? []).map((address) => ({ type: 'InternalIP', address })) },
  };
}

/** A Node informer over a fixed, mutable list (the shared informer the controllers hand over). */
export function nodeInformer(nodes: V1Node[], synced = true): SharedInformer<V1Node> {
  return {
    store: { get: (key) => nodes.find((node) => node.metadata?.name === key), list: () => [...nodes] },
    addHandlers: () => undefined,
    hasSynced: () => synced,
    waitForSync: async () => undefined,
  };
}

export function initializeContext(nodes: V1Node[], synced = true): CloudInitializeContext {
  return {
    informers: { nodes: nodeInformer(nodes, synced), secrets: () => nodeInformer([]) as never },
    clientBuilder: { kubeConfig: () => new KubeConfig() },
    logger: silentLogger,
    signal: new AbortController().signal,
  } as unknown as CloudInitializeContext;
}

export interface Harness {
  cloud: OpenStackCloud;
  compute: FakeCompute;
  network: FakeNetwork;
}

/** The provider over the fakes, with a huge budget and no retry sleeps. */
export async function createHarness(options: { config?: string; compute?: FakeCompute; network?: FakeNetwork; logger?: Logger; cloud?: OpenStackCloudOptions } = {}): Promise<Harness> {
  const compute = options.compute ?? new FakeCompute();
  const network = options.network ?? new FakeNetwork();
  const cloud = await createOpenStackCloud(options.config ?? cloudConf(), { logger: options.logger ?? silentLogger, metrics: createMetricsRegistry() }, {
    ports: { compute, network },
    environment: {},
    ...options.cloud,
    apiBudget: { qps: 1_000_000, burst: 1_000_000, initialBackoffMs: 0, ...options.cloud?.apiBudget },
    retry: { sleep: async () => {}, ...options.cloud?.retry },
  });
  return { cloud, compute, network };
}

/** A server with one ACTIVE port on the node network holding `ip`, as Nova and Neutron show it. */
export function addNodeServer(harness: Pick<Harness, 'compute' | 'network'>, name: string, ip: string, options: { status?: string; availabilityZone?: string } = {}): { id: string; portId: string } {
  const server = harness.compute.addServer(name, {
    ...options,
    addresses: { [NODE_NETWORK]: [{ address: ip, version: ip.includes(':') ? 6 : 4, type: 'fixed' }] },
  });
  const port = harness.network.addPort({ networkId: NODE_NETWORK_ID, deviceId: server.id, fixedIps: [{ subnetId: 'subnet-nodes', ipAddress: ip }] });
  return { id: server.id, portId: port.id };
}
