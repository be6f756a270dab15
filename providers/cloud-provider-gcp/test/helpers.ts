/** Builders and a harness wiring the GCE provider to its in-memory fake. */
import { createMetricsRegistry } from '@ccm/core/app';
import type { V1Node, V1Service } from '@ccm/core/kube';
import { silentLogger, type Logger } from '@ccm/core/logging';
import { createGcpCloud, type GcpCloud, type GcpCloudOptions } from '../src/gcp-cloud.js';
import { FakeCompute } from './fakes/fake-compute.js';
import { FakeServiceEvents } from './fakes/fake-service-events.js';
import { FakeServiceFinalizers } from './fakes/fake-service-finalizers.js';

export const PROJECT = 'test-project';
export const ZONE = 'us-central1-b';
export const OTHER_ZONE = 'us-central1-c';
export const REGION = 'us-central1';
export const NETWORK = 'default';
export const CLUSTER_ID = 'test-cluster-id';

export function gceConf(extra = ''): string {
  return `[global]\nproject-id = ${PROJECT}\nnetwork-name = ${NETWORK}\nlocal-zone = ${ZONE}\n${extra}`;
}

export function makeNode(name: string, options: { providerId?: string; labels?: Record<string, string> } = {}): V1Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, ...(options.labels === undefined ? {} : { labels: options.labels }) },
    spec: options.providerId === undefined ? {} : { providerID: options.providerId },
  };
}

export interface ServiceOptions {
  name?: string;
  namespace?: string;
  uid?: string;
  annotations?: Record<string, string>;
  ports?: Array<{ name?: string; port: number; nodePort?: number; protocol?: string }>;
  externalTrafficPolicy?: string;
  healthCheckNodePort?: number;
  sessionAffinity?: string;
  loadBalancerIP?: string;
  loadBalancerSourceRanges?: string[];
  loadBalancerClass?: string;
  finalizers?: string[];
}

export function makeService(options: ServiceOptions = {}): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: options.name ?? 'web', namespace: options.namespace ?? 'default', uid: options.uid ?? '11111111-2222-3333-4444-555555555555', annotations: options.annotations ?? {}, ...(options.finalizers === undefined ? {} : { finalizers: options.finalizers }) },
    spec: {
      type: 'LoadBalancer',
      ports: (options.ports ?? [{ name: 'http', port: 80, nodePort: 30080 }]).map((port) => ({ protocol: 'TCP', ...port })),
      ...(options.externalTrafficPolicy === undefined ? {} : { externalTrafficPolicy: options.externalTrafficPolicy }),
      ...(options.healthCheckNodePort === undefined ? {} : { healthCheckNodePort: options.healthCheckNodePort }),
      ...(options.sessionAffinity === undefined ? {} : { sessionAffinity: options.sessionAffinity }),
      ...(options.loadBalancerIP === undefined ? {} : { loadBalancerIP: options.loadBalancerIP }),
      ...(options.loadBalancerSourceRanges === undefined ? {} : { loadBalancerSourceRanges: options.loadBalancerSourceRanges }),
      ...(options.loadBalancerClass === undefined ? {} : { loadBalancerClass: options.loadBalancerClass }),
    },
  };
}

export interface Harness {
  cloud: GcpCloud;
  compute: FakeCompute;
  finalizers: FakeServiceFinalizers;
  events: FakeServiceEvents;
}

/** The provider over a FakeCompute, with a huge budget and no retry sleeps. */
export async function createHarness(options: { config?: string; compute?: FakeCompute; logger?: Logger; cloud?: GcpCloudOptions } = {}): Promise<Harness> {
  const compute = options.compute ?? new FakeCompute(PROJECT);
  const finalizers = new FakeServiceFinalizers();
  const events = new FakeServiceEvents();
  const cloud = await createGcpCloud(options.config ?? gceConf(), { logger: options.logger ?? silentLogger, metrics: createMetricsRegistry() }, {
    ports: { compute },
    clusterId: async () => CLUSTER_ID,
    serviceFinalizers: finalizers,
    serviceEvents: events,
    ...options.cloud,
    apiBudget: { qps: 1_000_000, burst: 1_000_000, initialBackoffMs: 0, ...options.cloud?.apiBudget },
    retry: { sleep: async () => {}, ...options.cloud?.retry },
  });
  return { cloud, compute, finalizers, events };
}
