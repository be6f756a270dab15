import type { KubeNode, KubeService, ObservedEvent } from '../harness/kube-objects.js';
import { DEFAULT_WAIT_MS } from '../harness/test-cluster.js';
import { isInitialized, registerNode, type KubeletNodeOptions } from '../harness/node-registration.js';
import type { CloudLoadBalancerView, DriverInstance } from './provider-driver.js';
import { uniqueName, type GroupContext } from './scenario-context.js';

/** Waits until the node exists and no longer carries the uninitialized taint. */
export function waitForInitializedNode(context: GroupContext, name: string): Promise<KubeNode> {
  return context.cluster.waitFor(`node ${name} to be initialized (uninitialized taint removed)`, async (observe) => {
    const node = await context.cluster.client.getNode(name);
    observe({ providerID: node.spec?.providerID, taints: node.spec?.taints ?? [] });
    return isInitialized(node) ? node : undefined;
  });
}

export interface InitializedNode {
  instance: DriverInstance;
  node: KubeNode;
}

/** Creates a cloud instance, registers its node as a kubelet would and waits for initialization. */
export async function addInitializedNode(
  context: GroupContext,
  prefix: string,
  options: Omit<KubeletNodeOptions, 'name'> = {},
): Promise<InitializedNode> {
  const instance = await context.driver.createInstance(uniqueName(prefix));
  await registerNode(context.cluster.client, { ...options, name: instance.nodeName });
  const node = await waitForInitializedNode(context, instance.nodeName);
  return { instance, node };
}

export interface EventQuery {
  kind: string;
  name: string;
  namespace?: string;
  reason: string;
  type?: 'Normal' | 'Warning';
}

function describeEvent(query: EventQuery): string {
  const subject = query.namespace === undefined ? `${query.kind} ${query.name}` : `${query.kind} ${query.namespace}/${query.name}`;
  return `a ${query.type ?? ''}${query.type ? ' ' : ''}event ${query.reason} on ${subject}`;
}

/** Waits for an event about an object with the given reason (and type). */
export function waitForEvent(context: GroupContext, query: EventQuery, timeoutMs?: number): Promise<ObservedEvent> {
  return context.cluster.waitFor(
    describeEvent(query),
    async (observe) => {
      const events = await context.cluster.client.eventsFor(query.kind, query.name, query.namespace);
      observe(events.map((event) => `${event.type} ${event.reason}: ${event.message}`));
      return events.find((event) => event.reason === query.reason && (query.type === undefined || event.type === query.type));
    },
    timeoutMs,
  );
}

/** How long to wait for each step of a load balancer change: the driver's `loadBalancerWaitMs`, else the suite's default. */
export function loadBalancerWaitMs(context: GroupContext): number {
  return context.driver.loadBalancerWaitMs ?? DEFAULT_WAIT_MS;
}

let nodePortCounter = 0;
const nodePortBase = 30_000 + Math.floor(Math.random() * 2_000);

/** A node port unlikely to collide within a run (the API server checks uniqueness). */
export function nextNodePort(): number {
  nodePortCounter += 1;
  return nodePortBase + (nodePortCounter % 700);
}

/** A minimal `type: LoadBalancer` Service in `default` with one TCP port 80. */
export function loadBalancerService(name: string, spec: Partial<NonNullable<KubeService['spec']>> = {}): KubeService {
  return {
    metadata: { name, namespace: 'default', labels: { 'app.kubernetes.io/part-of': 'ccm-conformance' } },
    spec: {
      type: 'LoadBalancer',
      selector: { app: name },
      ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080, nodePort: nextNodePort() }],
      ...spec,
    },
  };
}

export function serviceReference(service: KubeService): { namespace: string; name: string; uid: string } {
  return { namespace: service.metadata.namespace ?? 'default', name: service.metadata.name ?? '', uid: service.metadata.uid ?? '' };
}

/** Waits until the cloud's view of the service's load balancer satisfies `predicate`. */
export function waitForCloudLoadBalancer(
  context: GroupContext,
  service: KubeService,
  description: string,
  predicate: (view: CloudLoadBalancerView) => boolean,
): Promise<CloudLoadBalancerView> {
  return context.cluster.waitFor(
    `the cloud load balancer of ${service.metadata.name} ${description}`,
    async (observe) => {
      const view = await context.driver.readLoadBalancer(serviceReference(service));
      observe(view);
      return predicate(view) ? view : undefined;
    },
    loadBalancerWaitMs(context),
  );
}

export function sortedNames(names: readonly string[]): string[] {
  return [...names].sort();
}
