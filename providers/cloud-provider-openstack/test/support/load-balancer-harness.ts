/** Builders and a harness wiring the OpenStack load balancer to its in-memory fakes. */
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { silentLogger, type Logger } from '@ccm/core/logging';
import { OpenStackLoadBalancers } from '../../src/openstack-load-balancers.js';
import { OctaviaLoadBalancerOperations } from '../../src/operations/load-balancer/octavia-load-balancers.js';
import { DEFAULT_LOAD_BALANCER_SETTINGS, type LoadBalancerSettings } from '../../src/operations/load-balancer/load-balancer-settings.js';
import { FakeLoadBalancerNetwork } from '../fakes/fake-load-balancer-network.js';
import { FakeOctavia } from '../fakes/fake-octavia.js';
import { FakeSecurityGroup } from '../fakes/fake-security-group.js';
import { RecordingServiceAnnotations } from '../fakes/recording-service-annotations.js';

export const CLUSTER = 'kubernetes';
export const NODE_SUBNET = { id: 'subnet-nodes', networkId: 'net-nodes', cidr: '10.0.0.0/24', ipVersion: 4 as const };
export const PUBLIC_NETWORK = 'net-public';

export interface ServiceOptions {
  name?: string;
  namespace?: string;
  annotations?: Record<string, string>;
  ports?: Array<{ name?: string; port: number; nodePort?: number; protocol?: string }>;
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  sessionAffinity?: string;
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
}

export function makeService(options: ServiceOptions = {}): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: options.name ?? 'web', namespace: options.namespace ?? 'default', uid: 'uid-1', ...(options.annotations === undefined ? {} : { annotations: options.annotations }) },
    spec: {
      type: 'LoadBalancer',
      ports: (options.ports ?? [{ name: 'http', port: 80, nodePort: 30080 }]).map((port) => ({ protocol: 'TCP', ...port })),
      ...(options.externalTrafficPolicy === undefined ? {} : { externalTrafficPolicy: options.externalTrafficPolicy }),
      ...(options.healthCheckNodePort === undefined ? {} : { healthCheckNodePort: options.healthCheckNodePort }),
      ...(options.sessionAffinity === undefined ? {} : { sessionAffinity: options.sessionAffinity }),
      ...(options.loadBalancerIP === undefined ? {} : { loadBalancerIP: options.loadBalancerIP }),
      ...(options.loadBalancerSourceRanges === undefined ? {} : { loadBalancerSourceRanges: options.loadBalancerSourceRanges }),
    },
  };
}

export function makeNode(name: string, internalIp: string, labels: Record<string, string> = {}): V1Node {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name, labels }, spec: { providerID: `openstack:///server-${name}` }, status: { addresses: [{ type: 'InternalIP', address: internalIp }, { type: 'Hostname', address: name }] } };
}

export interface Harness {
  octavia: FakeOctavia;
  network: FakeLoadBalancerNetwork;
  /** Neutron's security groups and the nodes' ports (`node-port-<n>` on `server-node-<n>`, group `default`). */
  securityGroups: FakeSecurityGroup;
  /** The annotations written on Services. */
  annotations: RecordingServiceAnnotations;
  loadBalancers: OpenStackLoadBalancers;
  operations: OctaviaLoadBalancerOperations;
  nodes: V1Node[];
  sleeps: number[];
  warnings: Array<{ message: string; fields: unknown }>;
}

export function createHarness(overrides: Partial<LoadBalancerSettings> = {}, options: { networkDriver?: 'neutron' | 'noop' } = {}): Harness {
  const network = new FakeLoadBalancerNetwork();
  const networkDriver = options.networkDriver ?? (overrides.vipPortMode === 'reserved' ? 'noop' : 'neutron');
  const octavia = new FakeOctavia({ networkDriver, network });
  network.addSubnet(NODE_SUBNET);
  network.addSubnet({ id: 'subnet-public', networkId: PUBLIC_NETWORK, cidr: '172.24.4.0/24', ipVersion: 4 });
  const nodes = [makeNode('node-1', '10.0.0.11'), makeNode('node-2', '10.0.0.12')];
  for (const [index, node] of nodes.entries()) {
    network.addPort({ id: `node-port-${index + 1}`, name: '', description: '', networkId: NODE_SUBNET.networkId, fixedIps: [{ subnetId: NODE_SUBNET.id, address: node.status!.addresses![0]!.address }] });
  }
  const securityGroups = new FakeSecurityGroup();
  const defaultGroup = securityGroups.addGroup('default');
  for (const [index, node] of nodes.entries()) {
    securityGroups.addPort({ id: `node-port-${index + 1}`, deviceId: `server-${node.metadata!.name}`, fixedIps: [{ subnetId: NODE_SUBNET.id, address: node.status!.addresses![0]!.address }], securityGroupIds: [defaultGroup.id] });
  }
  const annotations = new RecordingServiceAnnotations();
  const sleeps: number[] = [];
  const warnings: Harness['warnings'] = [];
  const logger: Logger = { ...silentLogger, warn: (message, fields) => warnings.push({ message, fields }), child: () => logger };
  const operations = new OctaviaLoadBalancerOperations({
    octavia,
    network,
    securityGroups,
    serviceAnnotations: annotations,
    settings: { ...DEFAULT_LOAD_BALANCER_SETTINGS, floatingNetworkId: PUBLIC_NETWORK, ...overrides },
    wait: { quickChecks: 0, quickDelayMs: 250, steps: 10, initialDelayMs: 1000, factor: 1.2, sleep: async (ms) => void sleeps.push(ms) },
    logger,
  });
  return { octavia, network, securityGroups, annotations, operations, loadBalancers: new OpenStackLoadBalancers(operations), nodes, sleeps, warnings };
}
