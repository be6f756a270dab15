import {
  FINALIZER_LOAD_BALANCER_CLEANUP,
  LABEL_INSTANCE_TYPE,
  LABEL_INSTANCE_TYPE_BETA,
  LABEL_REGION,
  LABEL_REGION_BETA,
  LABEL_ZONE,
  LABEL_ZONE_BETA,
} from '@ccm/core/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeNode, KubeService, LoadBalancerIngress } from '../../harness/kube-objects.js';
import { isInitialized, kubeletNode } from '../../harness/node-registration.js';
import { parsePrometheusText } from '../../harness/prometheus-text.js';
import type { CcmInstance } from '../../harness/test-cluster.js';
import { eligibleBackendNames } from '../expectations.js';
import type {
  ProviderDriver,
  ProviderSwapFixture,
  SwapInventory,
  SwapNodeSeed,
  SwapServiceSeed,
  SwapServiceVariant,
  UpstreamServiceState,
} from '../provider-driver.js';
import { GROUP_HOOK_TIMEOUT_MS, SCENARIO_TIMEOUT_MS, uniqueName, useGroupCluster, type GroupContext, type SuiteSettings } from '../scenario-context.js';
import { loadBalancerService, serviceReference, sortedNames } from '../scenario-helpers.js';

/** Nodes the upstream CCM initialized before the swap. */
const SWAP_NODES = 2;
/** Pod CIDRs of the swap's nodes: above the routes group's (10.244.1-200.0/24) in the same cloud. */
const SWAP_POD_CIDR_BASE = 240;

/** The Node as upstream's cloud node controller left it: provider ID, labels, addresses, no taint. */
export function upstreamInitializedNode(seed: SwapNodeSeed): KubeNode {
  const { instance } = seed;
  const labels: Record<string, string> = {};
  if (instance.expectedInstanceType !== undefined) {
    labels[LABEL_INSTANCE_TYPE] = instance.expectedInstanceType;
    labels[LABEL_INSTANCE_TYPE_BETA] = instance.expectedInstanceType;
  }
  if (instance.expectedZone !== undefined) {
    labels[LABEL_ZONE] = instance.expectedZone;
    labels[LABEL_ZONE_BETA] = instance.expectedZone;
  }
  if (instance.expectedRegion !== undefined) {
    labels[LABEL_REGION] = instance.expectedRegion;
    labels[LABEL_REGION_BETA] = instance.expectedRegion;
  }
  const node = kubeletNode({
    name: instance.nodeName,
    providerId: instance.expectedProviderId,
    labels,
    ...(seed.podCidr === undefined ? {} : { podCidrs: [seed.podCidr] }),
  });
  node.spec = { ...node.spec, taints: [] };
  return node;
}

function ingressKey(ingress: ReadonlyArray<LoadBalancerIngress | { ip?: string; hostname?: string }>): string[] {
  return ingress.map((entry) => entry.ip ?? entry.hostname ?? '').sort();
}

function ingressOf(service: KubeService): LoadBalancerIngress[] {
  return service.status?.loadBalancer?.ingress ?? [];
}

/** What one sample of a counter family adds up to in a `/metrics` text (0 when absent). */
function counterTotal(metricsText: string, family: string): number {
  const parsed = parsePrometheusText(metricsText).get(family);
  return (parsed?.samples ?? []).reduce((sum, sample) => sum + Number(sample.value), 0);
}

/** What a Node carries that our CCM must keep as upstream left it. */
function nodeSnapshot(node: KubeNode): { providerID: string | undefined; labels: Record<string, string>; addresses: unknown; taints: unknown } {
  return { providerID: node.spec?.providerID, labels: node.metadata.labels ?? {}, addresses: node.status?.addresses ?? [], taints: node.spec?.taints ?? [] };
}

/** Node status passes of the CCM that went over at least `nodes` Nodes (core logs one line per pass at --v=2). */
function nodeStatusPasses(ccm: CcmInstance, nodes: number): number {
  return [...ccm.process.output().matchAll(/Update (\d+) nodes status took/g)].filter((match) => Number(match[1]) >= nodes).length;
}

interface SwapState {
  fixture: ProviderSwapFixture;
  nodes: SwapNodeSeed[];
  /** Each Node as it was before our CCM started (the API server's admission adds `node.kubernetes.io/not-ready` at create; no kube-controller-manager runs to remove it). */
  nodesBefore: Map<string, ReturnType<typeof nodeSnapshot>>;
  services: SwapServiceSeed[];
  upstream: UpstreamServiceState[];
  before: SwapInventory;
  ccm: CcmInstance;
}

/** Creates the Services as their user wrote them; no CCM runs yet, so nothing happens to them. */
async function createUserServices(context: GroupContext, variants: readonly SwapServiceVariant[]): Promise<SwapServiceSeed[]> {
  const seeds: SwapServiceSeed[] = [];
  for (const variant of variants) {
    const manifest = loadBalancerService(uniqueName(`swap-${variant.label}`), {
      ...(variant.loadBalancerIP === undefined ? {} : { loadBalancerIP: variant.loadBalancerIP }),
      ...(variant.externalTrafficPolicy === undefined ? {} : { externalTrafficPolicy: variant.externalTrafficPolicy }),
    });
    if (variant.annotations !== undefined) manifest.metadata.annotations = { ...variant.annotations };
    const created = await context.cluster.client.createService(manifest);
    seeds.push({
      namespace: created.metadata.namespace ?? 'default',
      name: created.metadata.name ?? '',
      uid: created.metadata.uid ?? '',
      variant,
      ports: (created.spec?.ports ?? []).map((port) => ({
        ...(port.name === undefined ? {} : { name: port.name }),
        protocol: port.protocol ?? 'TCP',
        port: port.port,
        nodePort: port.nodePort ?? 0,
      })),
      ...(typeof created.spec?.healthCheckNodePort === 'number' ? { healthCheckNodePort: created.spec.healthCheckNodePort } : {}),
    });
  }
  return seeds;
}

/** Writes on each Service what upstream's CCM wrote: its finalizers, annotations and ingress. */
async function applyUpstreamServiceState(context: GroupContext, seeds: readonly SwapServiceSeed[], states: readonly UpstreamServiceState[]): Promise<void> {
  const client = context.cluster.client;
  for (const [index, seed] of seeds.entries()) {
    const state = states[index];
    if (state === undefined) throw new Error(`the swap fixture returned no upstream state for Service ${seed.name}`);
    await client.patchService(seed.namespace, seed.name, {
      metadata: { finalizers: [FINALIZER_LOAD_BALANCER_CLEANUP, ...state.extraFinalizers], annotations: state.writtenAnnotations },
    });
    await client.patchServiceStatus(seed.namespace, seed.name, { status: { loadBalancer: { ingress: state.ingress } } });
  }
}

function describeDifference(label: string, before: Record<string, string>, after: Record<string, string>): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(before)) {
    if (!(key in after)) lines.push(`${label}: ${key} (${value}) was deleted`);
    else if (after[key] !== value) lines.push(`${label}: ${key} changed from ${value} to ${after[key]}`);
  }
  for (const [key, value] of Object.entries(after)) if (!(key in before)) lines.push(`${label}: ${key} (${value}) was created`);
  return lines;
}

/**
 * The swap scenario (issue 23): a cluster the upstream CCM ran. Its nodes are initialized, its
 * Services carry upstream's finalizers, annotations and ingress, and the cloud holds exactly what
 * upstream made (the driver's `swap` fixture, citing upstream's code), next to another cluster's
 * load balancer. Our CCM starts on top: it must adopt all of it (nothing created, deleted or
 * recreated, the same ingress), then delete every Service cleanly and the routes of deleted
 * nodes, and leave the user's and the other cluster's resources alone.
 */
export function registerSwapScenarios(driver: ProviderDriver, suite: SuiteSettings): void {
  const fixture = driver.swap;
  describe('swap from the upstream CCM', { timeout: SCENARIO_TIMEOUT_MS }, () => {
    const context = useGroupCluster(driver, suite, { startCcm: false });
    let state: SwapState | undefined;
    const current = (): SwapState => {
      if (state === undefined) throw new Error('the swap fixture was not set up (see the group hook error)');
      return state;
    };

    beforeAll(async () => {
      const client = context.cluster.client;
      const nodes: SwapNodeSeed[] = [];
      for (let index = 0; index < SWAP_NODES; index += 1) {
        const instance = await driver.createInstance(uniqueName('swap-node'));
        nodes.push({ instance, ...(driver.capabilities.routes ? { podCidr: `10.244.${SWAP_POD_CIDR_BASE + index}.0/24` } : {}) });
      }
      for (const seed of nodes) {
        const created = await client.createNode(upstreamInitializedNode(seed));
        if (created.metadata.uid !== undefined) seed.uid = created.metadata.uid;
        await client.patchNodeStatus(seed.instance.nodeName, {
          status: {
            addresses: seed.instance.expectedAddresses,
            conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: new Date().toISOString(), lastTransitionTime: new Date().toISOString() }],
          },
        });
      }
      const variants = driver.capabilities.loadBalancer ? await fixture.userServices() : [];
      const services = await createUserServices(context, variants);
      const upstream = await fixture.seedUpstream({ services, nodes });
      await applyUpstreamServiceState(context, services, upstream);
      for (const configMap of fixture.upstreamConfigMaps?.() ?? []) {
        await client.ensureNamespace(configMap.namespace);
        await client.request('POST', `/api/v1/namespaces/${configMap.namespace}/configmaps`, {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: configMap.name, namespace: configMap.namespace },
          data: configMap.data,
        });
      }
      const before = await fixture.inventory();
      const nodesBefore = new Map<string, ReturnType<typeof nodeSnapshot>>();
      for (const seed of nodes) nodesBefore.set(seed.instance.nodeName, nodeSnapshot(await client.getNode(seed.instance.nodeName)));
      console.info(
        `[conformance: ${driver.name}] swap fixture (cluster ${fixture.clusterName}): ${Object.keys(before.loadBalancers).length} load-balancer resources, ${Object.keys(before.routes).length} routes, ${Object.keys(before.user).length} user and ${Object.keys(before.foreign).length} foreign resources`,
      );
      const ccm = await context.cluster.startCcm(driver.ccmProcess(), { label: `${driver.name}-swap-ccm`, extraFlags: [`--cluster-name=${fixture.clusterName}`] });
      state = { fixture, nodes, nodesBefore, services, upstream, before, ccm };
    }, GROUP_HOOK_TIMEOUT_MS * 2);

    // Registered after useGroupCluster's: vitest runs afterAll hooks last-registered first, so the
    // user's and the other cluster's resources go before the group checks for leaks.
    afterAll(async () => {
      if (state !== undefined) await state.fixture.cleanUp();
    }, GROUP_HOOK_TIMEOUT_MS);

    it('adopts what the upstream CCM made: every Service ensured with the same ingress, nothing created, deleted or recreated in the cloud', async () => {
      const { services, upstream, before, ccm, nodes, nodesBefore } = current();
      const client = context.cluster.client;
      // Every Service is synced at start: its EnsuredLoadBalancer event says our CCM went through it.
      for (const seed of services) {
        await context.cluster.waitFor(`an EnsuredLoadBalancer event on ${seed.name}`, async (observe) => {
          const events = await client.eventsFor('Service', seed.name, seed.namespace);
          observe(events.map((event) => `${event.type} ${event.reason}: ${event.message}`));
          return events.some((event) => event.reason === 'EnsuredLoadBalancer');
        });
      }
      if (driver.capabilities.routes) {
        // Two route syncs after start: the second began after the first had seen every route.
        await context.cluster.waitFor('two route syncs of the CCM', async (observe) => {
          const scrape = await ccm.metrics();
          const syncs = counterTotal(scrape.body, 'route_controller_route_sync_total');
          observe({ status: scrape.status, syncs });
          return syncs >= 2;
        });
      }
      for (const [index, seed] of services.entries()) {
        const service = await client.getService(seed.namespace, seed.name);
        expect(ingressKey(ingressOf(service)), `ingress of ${seed.name}`).toEqual(ingressKey(upstream[index]?.ingress ?? []));
        expect(service.metadata.finalizers ?? [], `finalizers of ${seed.name}`).toEqual(
          expect.arrayContaining([FINALIZER_LOAD_BALANCER_CLEANUP, ...(upstream[index]?.extraFinalizers ?? [])]),
        );
        const events = await client.eventsFor('Service', seed.name, seed.namespace);
        // Not the API server's ClusterIP repair (`ipallocator-repair-controller`, ClusterIPNotAllocated): its
        // informers lag the Service on a busy machine; the Warnings checked are the CCM's.
        const warnings = events.filter((event) => event.type === 'Warning' && event.component !== 'ipallocator-repair-controller');
        expect(warnings.map((event) => `${event.reason}: ${event.message}`), `warnings on ${seed.name}`).toEqual([]);
        const view = await driver.readLoadBalancer(serviceReference(service));
        expect(view.exists, `the load balancer of ${seed.name}`).toBe(true);
        expect(sortedNames(view.backendNodeNames), `backends of ${seed.name}`).toEqual(eligibleBackendNames(await client.listNodes()));
      }
      // Two node status passes over every Node (addresses refreshed from the cloud, labels reconciled).
      await context.cluster.waitFor('two node status passes of the CCM', () => nodeStatusPasses(ccm, nodes.length) >= 2);
      const after = await fixture.inventory();
      expect([
        ...describeDifference('load balancers', before.loadBalancers, after.loadBalancers),
        ...describeDifference('routes', before.routes, after.routes),
        ...describeDifference('user', before.user, after.user),
        ...describeDifference('other cluster', before.foreign, after.foreign),
      ]).toEqual([]);
      for (const seed of nodes) {
        const node = await client.getNode(seed.instance.nodeName);
        expect(node.spec?.providerID, `providerID of ${seed.instance.nodeName}`).toBe(seed.instance.expectedProviderId);
        expect(isInitialized(node), `${seed.instance.nodeName} without the uninitialized taint`).toBe(true);
        expect(nodeSnapshot(node), `providerID, labels, addresses and taints of ${seed.instance.nodeName}`).toEqual(nodesBefore.get(seed.instance.nodeName));
      }
    });

    it('deletes every adopted Service cleanly (cloud resources and finalizers gone), keeping the routes, the user\'s and the other cluster\'s resources', async () => {
      const { services, before } = current();
      const client = context.cluster.client;
      for (const seed of services) await client.deleteService(seed.namespace, seed.name);
      for (const seed of services) {
        await context.cluster.waitFor(`Service ${seed.name} to lose its finalizers and go`, async (observe) => {
          const found = await client.findService(seed.namespace, seed.name);
          observe(found?.metadata.finalizers);
          return found === undefined;
        });
      }
      const after = await context.cluster.waitFor('every load-balancer resource of the cluster to be gone', async (observe) => {
        const inventory = await fixture.inventory();
        observe(inventory.loadBalancers);
        return Object.keys(inventory.loadBalancers).length === 0 ? inventory : undefined;
      });
      expect([
        ...describeDifference('routes', before.routes, after.routes),
        ...describeDifference('user', before.user, after.user),
        ...describeDifference('other cluster', before.foreign, after.foreign),
      ]).toEqual([]);
    });

    it('removes the routes upstream programmed once their nodes are gone, and still leaves the other cluster alone', async () => {
      const { nodes, before } = current();
      const client = context.cluster.client;
      for (const seed of nodes) await client.deleteNode(seed.instance.nodeName);
      const after = await context.cluster.waitFor('every route of the cluster to be gone', async (observe) => {
        const inventory = await fixture.inventory();
        observe(inventory.routes);
        return Object.keys(inventory.routes).length === 0 ? inventory : undefined;
      });
      expect([...describeDifference('user', before.user, after.user), ...describeDifference('other cluster', before.foreign, after.foreign)]).toEqual([]);
    });
  });
}
