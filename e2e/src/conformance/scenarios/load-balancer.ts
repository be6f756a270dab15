import { isDeepStrictEqual } from 'node:util';
import { FINALIZER_LOAD_BALANCER_CLEANUP, LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS } from '@ccm/core/api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { KubeService, LoadBalancerIngress } from '../../harness/kube-objects.js';
import { eligibleBackendNames } from '../expectations.js';
import type { CloudLoadBalancerView, ProviderDriver } from '../provider-driver.js';
import { GROUP_HOOK_TIMEOUT_MS, SCENARIO_TIMEOUT_MS, uniqueName, useGroupCluster, type GroupContext, type SuiteSettings } from '../scenario-context.js';
import {
  addInitializedNode,
  loadBalancerService,
  nextNodePort,
  serviceReference,
  sortedNames,
  loadBalancerWaitMs,
  waitForCloudLoadBalancer,
  waitForEvent,
} from '../scenario-helpers.js';

function hasFinalizer(service: KubeService): boolean {
  return (service.metadata.finalizers ?? []).includes(FINALIZER_LOAD_BALANCER_CLEANUP);
}

function ingressOf(service: KubeService): LoadBalancerIngress[] {
  return service.status?.loadBalancer?.ingress ?? [];
}

/** Creates a LoadBalancer service and waits until it is provisioned (finalizer + ingress). */
async function createProvisionedService(
  context: GroupContext,
  prefix: string,
  options: { spec?: Partial<NonNullable<KubeService['spec']>>; annotations?: Record<string, string> } = {},
): Promise<KubeService> {
  const name = uniqueName(prefix);
  const manifest = loadBalancerService(name, options.spec);
  if (options.annotations) manifest.metadata.annotations = { ...options.annotations };
  await context.cluster.client.createService(manifest);
  return context.cluster.waitFor(
    `service ${name} to get the cleanup finalizer and an ingress`,
    async (observe) => {
      const service = await context.cluster.client.getService('default', name);
      observe({ finalizers: service.metadata.finalizers, status: service.status });
      return hasFinalizer(service) && ingressOf(service).length > 0 ? service : undefined;
    },
    loadBalancerWaitMs(context),
  );
}

async function expectedBackends(context: GroupContext): Promise<string[]> {
  return eligibleBackendNames(await context.cluster.client.listNodes());
}

/** Waits until the cloud LB has exactly the eligible nodes (recomputed at every poll) as backends. */
async function waitForEligibleBackends(context: GroupContext, service: KubeService, because: string): Promise<string[]> {
  let expected: string[] = [];
  await context.cluster.waitFor(`the backends of ${service.metadata.name} to equal the eligible nodes (${because})`, async (observe) => {
    expected = await expectedBackends(context);
    const view = await context.driver.readLoadBalancer(serviceReference(service));
    observe({ expected, cloud: view });
    return view.exists && JSON.stringify(sortedNames(view.backendNodeNames)) === JSON.stringify(expected);
  }, loadBalancerWaitMs(context));
  return expected;
}

async function deleteServiceAndWait(context: GroupContext, service: KubeService): Promise<void> {
  const name = service.metadata.name ?? '';
  await context.cluster.client.deleteService('default', name);
  await context.cluster.waitFor(`service ${name} to be finalized and gone`, async (observe) => {
    const current = await context.cluster.client.findService('default', name);
    observe(current?.metadata);
    return current === undefined;
  }, loadBalancerWaitMs(context));
}

/** Service controller: cloud load balancers for `type: LoadBalancer` Services. */
export function registerLoadBalancerScenarios(driver: ProviderDriver, suite: SuiteSettings): void {
  // A scenario makes a few load balancer changes in a row: room for five full waits when the driver's are long.
  describe('service load balancers', { timeout: Math.max(SCENARIO_TIMEOUT_MS, 5 * (driver.loadBalancerWaitMs ?? 0)) }, () => {
    const context = useGroupCluster(driver, suite);

    beforeAll(async () => {
      await addInitializedNode(context, 'lb-node');
      await addInitializedNode(context, 'lb-node');
    }, GROUP_HOOK_TIMEOUT_MS);

    it('adds the finalizer, publishes the ingress, emits Ensuring/Ensured and backs the LB with every eligible node', async () => {
      const service = await createProvisionedService(context, 'lb');
      const reference = serviceReference(service);
      await waitForEvent(context, { kind: 'Service', namespace: 'default', name: reference.name, reason: 'EnsuringLoadBalancer', type: 'Normal' }, loadBalancerWaitMs(context));
      const ensured = await waitForEvent(context, {
        kind: 'Service',
        namespace: 'default',
        name: reference.name,
        reason: 'EnsuredLoadBalancer',
        type: 'Normal',
      }, loadBalancerWaitMs(context));
      expect(ensured.message).toBe('Ensured load balancer');

      const view = await driver.readLoadBalancer(reference);
      expect(view.exists).toBe(true);
      expect(view.ports).toEqual([80]);
      const expected = await expectedBackends(context);
      expect(expected.length).toBeGreaterThanOrEqual(2);
      expect(sortedNames(view.backendNodeNames)).toEqual(expected);
      for (const ingress of ingressOf(service)) expect(ingress.ip ?? ingress.hostname).toBeTruthy();
    });

    it('updates the backends when a node joins, is excluded by label, and is included again with the label set to false', async () => {
      const service = await createProvisionedService(context, 'lb-nodes');
      await waitForEligibleBackends(context, service, 'initial');

      const { instance } = await addInitializedNode(context, 'lb-joiner');
      const withJoiner = await waitForEligibleBackends(context, service, `after ${instance.nodeName} joined`);
      expect(withJoiner).toContain(instance.nodeName);
      // The service's own host update, before the node set changes again: where load balancers
      // share one backend pool (Azure), another service's update already shows the joiner, and the
      // node sync skips this service if the exclusion below lands before its turn.
      await waitForEvent(context, { kind: 'Service', namespace: 'default', name: service.metadata.name ?? '', reason: 'UpdatedLoadBalancer', type: 'Normal' }, loadBalancerWaitMs(context));

      const client = context.cluster.client;
      await client.patchNode(instance.nodeName, { metadata: { labels: { [LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS]: 'true' } } });
      const withoutJoiner = await waitForEligibleBackends(context, service, `after ${instance.nodeName} was excluded`);
      expect(withoutJoiner).not.toContain(instance.nodeName);
      await waitForEvent(context, {
        kind: 'Service',
        namespace: 'default',
        name: service.metadata.name ?? '',
        reason: 'UpdatedLoadBalancer',
        type: 'Normal',
      }, loadBalancerWaitMs(context));

      // Since v1.34 only a true boolean excludes: "false" includes the node again.
      await client.patchNode(instance.nodeName, { metadata: { labels: { [LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS]: 'false' } } });
      const included = await waitForEligibleBackends(context, service, `after ${instance.nodeName}'s label became "false"`);
      expect(included).toContain(instance.nodeName);

      await deleteServiceAndWait(context, service);
    });

    it('ignores a service with a loadBalancerClass: no finalizer, no status, no cloud load balancer', async () => {
      const client = context.cluster.client;
      const className = uniqueName('lb-class');
      await client.createService(loadBalancerService(className, { loadBalancerClass: 'example.com/another-controller' }));
      // A service created afterwards is processed after it: once that one is provisioned, the
      // controller has had every chance to act on the class-bearing one.
      const sentinel = await createProvisionedService(context, 'lb-sentinel');

      const ignored = await client.getService('default', className);
      expect(ignored.metadata.finalizers ?? []).not.toContain(FINALIZER_LOAD_BALANCER_CLEANUP);
      expect(ingressOf(ignored)).toEqual([]);
      expect((await driver.readLoadBalancer(serviceReference(ignored))).exists).toBe(false);
      const events = await client.eventsFor('Service', className, 'default');
      expect(events.map((event) => event.reason)).not.toContain('EnsuringLoadBalancer');

      await deleteServiceAndWait(context, sentinel);
      await client.deleteService('default', className);
    });

    it('removes the cloud load balancer and lets the service go when it is deleted', async () => {
      const service = await createProvisionedService(context, 'lb-delete');
      await waitForCloudLoadBalancer(context, service, 'to exist', (view) => view.exists);

      await deleteServiceAndWait(context, service);
      expect((await driver.readLoadBalancer(serviceReference(service))).exists).toBe(false);
      const name = service.metadata.name ?? '';
      await waitForEvent(context, { kind: 'Service', namespace: 'default', name, reason: 'DeletingLoadBalancer', type: 'Normal' }, loadBalancerWaitMs(context));
      await waitForEvent(context, { kind: 'Service', namespace: 'default', name, reason: 'DeletedLoadBalancer', type: 'Normal' }, loadBalancerWaitMs(context));
    });

    it('removes the cloud load balancer, the finalizer and the ingress when the service becomes ClusterIP', async () => {
      const service = await createProvisionedService(context, 'lb-clusterip');
      const name = service.metadata.name ?? '';
      await waitForCloudLoadBalancer(context, service, 'to exist', (view) => view.exists);

      // As `kubectl edit` would: the type changes and the type-dependent fields go away.
      await context.cluster.client.patchService('default', name, {
        spec: {
          type: 'ClusterIP',
          ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }],
          externalTrafficPolicy: null,
          allocateLoadBalancerNodePorts: null,
          healthCheckNodePort: null,
        },
      });
      await context.cluster.waitFor(`service ${name} to lose its finalizer and ingress`, async (observe) => {
        const current = await context.cluster.client.getService('default', name);
        observe({ finalizers: current.metadata.finalizers, status: current.status });
        return !hasFinalizer(current) && ingressOf(current).length === 0;
      }, loadBalancerWaitMs(context));
      await waitForCloudLoadBalancer(context, service, 'to be removed', (view) => !view.exists);

      await deleteServiceAndWait(context, service);
    });

    it('keeps the load balancer of one service working when another service is deleted', async () => {
      const kept = await createProvisionedService(context, 'lb-kept');
      const removed = await createProvisionedService(context, 'lb-removed', {
        spec: { ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 8443, nodePort: nextNodePort() }] },
      });
      await waitForEligibleBackends(context, kept, 'first of two services');
      await waitForEligibleBackends(context, removed, 'second of two services');

      await deleteServiceAndWait(context, removed);
      expect((await driver.readLoadBalancer(serviceReference(removed))).exists).toBe(false);
      const view = await driver.readLoadBalancer(serviceReference(kept));
      expect(view.exists).toBe(true);
      expect(view.ports).toEqual([80]);
      expect(sortedNames(view.backendNodeNames)).toEqual(await expectedBackends(context));
      const current = await context.cluster.client.getService('default', kept.metadata.name ?? '');
      expect(ingressOf(current)).toEqual(ingressOf(kept));

      await deleteServiceAndWait(context, kept);
    });

    const internal = driver.capabilities.internalLoadBalancer;
    if (internal === undefined) {
      console.info(`[conformance: ${driver.name}] internal load balancer scenario not registered: capabilities.internalLoadBalancer is not set`);
    } else {
      it(`gives a service annotated ${JSON.stringify(internal.annotations)} an internal load balancer, and removes it`, async () => {
        const service = await createProvisionedService(context, 'lb-internal', { annotations: internal.annotations });
        await waitForEligibleBackends(context, service, 'internal load balancer');
        const view = await driver.readLoadBalancer(serviceReference(service));
        expect(view.internal, 'the cloud load balancer of an internal service is internal').toBe(true);
        expect(view.ports).toEqual([80]);
        for (const ingress of ingressOf(service)) expect(ingress.ip ?? ingress.hostname).toBeTruthy();

        const external = await createProvisionedService(context, 'lb-external');
        expect((await driver.readLoadBalancer(serviceReference(external))).internal, 'a service without the annotations gets an external load balancer').toBe(false);

        await deleteServiceAndWait(context, service);
        await deleteServiceAndWait(context, external);
        expect((await driver.readLoadBalancer(serviceReference(service))).exists).toBe(false);
      });
    }

    if (driver.capabilities.externalTrafficPolicyLocal !== true) {
      console.info(`[conformance: ${driver.name}] externalTrafficPolicy Local scenario not registered: capabilities.externalTrafficPolicyLocal is not true`);
    } else {
      it('probes an externalTrafficPolicy Local service on its healthCheckNodePort, and moves the probe when it becomes Cluster', async () => {
        const service = await createProvisionedService(context, 'lb-local', { spec: { externalTrafficPolicy: 'Local' } });
        const name = service.metadata.name ?? '';
        const healthCheckNodePort = (await context.cluster.client.getService('default', name)).spec?.['healthCheckNodePort'];
        expect(typeof healthCheckNodePort, 'the API server allocates spec.healthCheckNodePort for a Local service').toBe('number');
        await waitForCloudLoadBalancer(context, service, `to probe node port ${String(healthCheckNodePort)}`, (view) => view.exists && view.healthCheckNodePort === healthCheckNodePort);

        await context.cluster.client.patchService('default', name, { spec: { externalTrafficPolicy: 'Cluster', healthCheckNodePort: null } });
        await waitForCloudLoadBalancer(
          context,
          service,
          `to stop probing node port ${String(healthCheckNodePort)} once the service is Cluster`,
          (view) => view.exists && view.healthCheckNodePort !== undefined && view.healthCheckNodePort !== healthCheckNodePort,
        );
        await deleteServiceAndWait(context, service);
      });
    }

    const firewall = driver.capabilities.nodeFirewall;
    if (firewall === undefined) {
      console.info(`[conformance: ${driver.name}] node firewall scenario not registered: capabilities.nodeFirewall is not set`);
    } else {
      it('opens the node ports of a service on its backends\' firewall, follows a joining node, and removes the firewall with the service', async () => {
        const service = await createProvisionedService(context, 'lb-firewall', {
          spec: {
            ports: [
              { name: 'http', protocol: 'TCP', port: 80, targetPort: 8080, nodePort: nextNodePort() },
              { name: 'https', protocol: 'TCP', port: 443, targetPort: 8443, nodePort: nextNodePort() },
            ],
          },
        });
        const rules = (service.spec?.ports ?? [])
          .map((port) => ({ protocol: port.protocol ?? 'TCP', port: port.nodePort ?? 0, sourceRanges: [...firewall.sourceRanges].sort() }))
          .sort((left, right) => left.protocol.localeCompare(right.protocol) || left.port - right.port);
        const firewallOn = (nodeNames: readonly string[]) => (view: CloudLoadBalancerView) =>
          isDeepStrictEqual(view.nodeFirewall, { rules, nodeNames: sortedNames(nodeNames) });

        const backends = await waitForEligibleBackends(context, service, 'node firewall');
        await waitForCloudLoadBalancer(context, service, `to open node ports ${rules.map((rule) => rule.port).join(', ')} on ${backends.join(', ')}`, firewallOn(backends));

        const { instance } = await addInitializedNode(context, 'lb-fw-joiner');
        const withJoiner = await waitForEligibleBackends(context, service, `after ${instance.nodeName} joined`);
        expect(withJoiner).toContain(instance.nodeName);
        await waitForCloudLoadBalancer(context, service, `to attach its firewall to ${instance.nodeName}`, firewallOn(withJoiner));

        await deleteServiceAndWait(context, service);
        await waitForCloudLoadBalancer(context, service, 'to have no firewall once the service is gone', (view) => !view.exists && view.nodeFirewall === undefined);
      });
    }

    it('leaves no cloud resources behind once its services and nodes are gone', async () => {
      const client = context.cluster.client;
      for (const service of await client.listServices('default')) {
        if (service.spec?.type === 'LoadBalancer') await deleteServiceAndWait(context, service);
      }
      for (const node of await client.listNodes()) await client.deleteNode(node.metadata.name ?? '');
      await context.cluster.waitFor(`${driver.name} to report no leaked cloud resources`, async (observe) => {
        const leaked = await driver.leakedResources();
        observe(leaked);
        return leaked.length === 0;
      });
    });
  });
}
