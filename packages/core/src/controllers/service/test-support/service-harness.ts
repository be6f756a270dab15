/**
 * Wires a ServiceController to an InMemoryKubeAccess, a FakeLoadBalancer and test queues, the way
 * upstream's `newController` wires the fake clientset and fake cloud.
 */
import { InMemoryKubeAccess } from '@ccm/testing/kube';
import type { V1Node, V1Service } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { silentLogger, type Logger } from '../../../logging/logger.js';
import { ServiceController, SERVICE_CONTROLLER_EVENT_COMPONENT, SERVICE_MAX_RETRY_DELAY_MS, SERVICE_MIN_RETRY_DELAY_MS } from '../service-controller.js';
import { registerServiceControllerMetrics } from '../service-metrics.js';
import { FakeLoadBalancer } from '../../test-support/fake-load-balancer.js';
import { TestWorkQueue } from './test-work-queue.js';

export const TEST_CLUSTER_NAME = 'test-cluster';

export interface ServiceHarnessOptions {
  nodes?: V1Node[];
  services?: V1Service[];
  workers?: number;
  listNodes?: () => V1Node[];
  /** Default: a silent logger. */
  logger?: Logger;
}

export interface ServiceHarness {
  kube: InMemoryKubeAccess;
  cloud: FakeLoadBalancer;
  controller: ServiceController;
  registry: Registry;
  serviceQueue: TestWorkQueue;
  nodeQueue: TestWorkQueue;
}

export function createServiceHarness(options: ServiceHarnessOptions = {}): ServiceHarness {
  const kube = new InMemoryKubeAccess();
  for (const node of options.nodes ?? []) kube.addNode(node);
  for (const service of options.services ?? []) kube.addService(service);
  const cloud = new FakeLoadBalancer();
  const registry = new Registry();
  const queueOptions = { baseDelayMs: SERVICE_MIN_RETRY_DELAY_MS, maxDelayMs: SERVICE_MAX_RETRY_DELAY_MS };
  const serviceQueue = new TestWorkQueue({ name: 'service', ...queueOptions });
  const nodeQueue = new TestWorkQueue({ name: 'node', ...queueOptions });
  const controller = new ServiceController({
    loadBalancer: cloud,
    providerName: 'fake',
    clusterName: TEST_CLUSTER_NAME,
    services: kube.services,
    serviceInformer: kube.serviceInformer,
    nodeInformer: kube.nodeInformer,
    recorder: kube.eventRecorder(SERVICE_CONTROLLER_EVENT_COMPONENT),
    serviceQueue,
    nodeQueue,
    metrics: registerServiceControllerMetrics(registry),
    logger: options.logger ?? silentLogger,
    workers: options.workers ?? 1,
    ...(options.listNodes !== undefined ? { listNodes: options.listNodes } : {}),
  });
  kube.clearActions();
  return { kube, cloud, controller, registry, serviceQueue, nodeQueue };
}

/** Reads a metric's current value (counters) or sample count (histograms). */
export async function metricValue(registry: Registry, name: string): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) throw new Error(`metric ${name} not registered`);
  const data = await metric.get();
  const samples = data.values as Array<{ value: number; metricName?: string }>;
  const countSample = samples.find((sample) => sample.metricName === `${name}_count`);
  return countSample?.value ?? samples[0]?.value ?? 0;
}
