import {
  ANNOTATION_PROVIDED_NODE_IP,
  LABEL_INSTANCE_TYPE,
  LABEL_INSTANCE_TYPE_BETA,
  LABEL_REGION,
  LABEL_REGION_BETA,
  LABEL_ZONE,
  LABEL_ZONE_BETA,
  TAINT_UNINITIALIZED,
} from '@ccm/core/api';
import { describe, expect, it } from 'vitest';
import type { KubeNode } from '../../harness/kube-objects.js';
import { findTaint, kubeletAddresses, registerNode, type KubeletNodeOptions } from '../../harness/node-registration.js';
import { expectToHold } from '../../harness/wait-for.js';
import { expectedNodeAddresses } from '../expectations.js';
import type { DriverInstance, ProviderDriver } from '../provider-driver.js';
import { SCENARIO_TIMEOUT_MS, uniqueName, useGroupCluster, type GroupContext } from '../scenario-context.js';
import { waitForEvent, waitForInitializedNode } from '../scenario-helpers.js';

function expectLabelPair(node: KubeNode, stable: string, beta: string, expected: string | undefined): void {
  const labels = node.metadata.labels ?? {};
  if (expected === undefined) {
    expect(labels[stable], `label ${stable}`).toBeUndefined();
    expect(labels[beta], `label ${beta}`).toBeUndefined();
  } else {
    expect(labels[stable], `label ${stable}`).toBe(expected);
    expect(labels[beta], `label ${beta}`).toBe(expected);
  }
}

async function waitForAddresses(
  context: GroupContext,
  instance: DriverInstance,
  registration: KubeletNodeOptions,
): Promise<void> {
  const expected = expectedNodeAddresses(instance.expectedAddresses, kubeletAddresses(registration), registration.providedNodeIp);
  await context.cluster.waitFor(`node ${instance.nodeName} to publish addresses ${JSON.stringify(expected)}`, async (observe) => {
    const node = await context.cluster.client.getNode(instance.nodeName);
    observe(node.status?.addresses);
    return JSON.stringify(node.status?.addresses ?? []) === JSON.stringify(expected);
  });
}

/** Cloud node controller: initialization of nodes registered with --cloud-provider=external. */
export function registerNodeInitializationScenarios(driver: ProviderDriver): void {
  describe('node initialization', { timeout: SCENARIO_TIMEOUT_MS }, () => {
    const context = useGroupCluster(driver);

    it('sets providerID, instance-type/zone/region labels (stable and beta) and addresses, removes the taint and emits Synced', async () => {
      const instance = await driver.createInstance(uniqueName('init'));
      const registration: KubeletNodeOptions = { name: instance.nodeName };
      await registerNode(context.cluster.client, registration);

      const node = await waitForInitializedNode(context, instance.nodeName);
      expect(node.spec?.providerID).toBe(instance.expectedProviderId);
      expectLabelPair(node, LABEL_INSTANCE_TYPE, LABEL_INSTANCE_TYPE_BETA, instance.expectedInstanceType);
      expectLabelPair(node, LABEL_ZONE, LABEL_ZONE_BETA, instance.expectedZone);
      expectLabelPair(node, LABEL_REGION, LABEL_REGION_BETA, instance.expectedRegion);
      // The kubelet's own labels survive the full-object update.
      expect(node.metadata.labels?.['kubernetes.io/hostname']).toBe(instance.nodeName);

      await waitForAddresses(context, instance, registration);
      const synced = await waitForEvent(context, { kind: 'Node', name: instance.nodeName, reason: 'Synced', type: 'Normal' });
      expect(synced.message).toBe('Node synced successfully');
      expect(synced.involvedObject.uid).toBe(node.metadata.uid);
      if (synced.component !== undefined) expect(synced.component).toBe('cloud-node-controller');
    });

    it('keeps the stable instance-type label in line with the beta one (beta wins)', async () => {
      const instance = await driver.createInstance(uniqueName('labels'));
      await registerNode(context.cluster.client, { name: instance.nodeName });
      await waitForInitializedNode(context, instance.nodeName);

      // Labels from the cloud are set once; afterwards only beta -> stable consistency is kept.
      await context.cluster.client.patchNode(instance.nodeName, {
        metadata: { labels: { [LABEL_INSTANCE_TYPE_BETA]: 'custom.large', [LABEL_INSTANCE_TYPE]: 'something-else' } },
      });
      await context.cluster.waitFor(`node ${instance.nodeName} to get ${LABEL_INSTANCE_TYPE}=custom.large from the beta label`, async (observe) => {
        const labels = (await context.cluster.client.getNode(instance.nodeName)).metadata.labels ?? {};
        observe({ beta: labels[LABEL_INSTANCE_TYPE_BETA], stable: labels[LABEL_INSTANCE_TYPE] });
        return labels[LABEL_INSTANCE_TYPE] === 'custom.large' && labels[LABEL_INSTANCE_TYPE_BETA] === 'custom.large';
      });
    });

    it('filters and orders addresses by the provided-node-ip annotation', async () => {
      const instance = await driver.createInstance(uniqueName('nodeip'));
      const registration: KubeletNodeOptions = { name: instance.nodeName, providedNodeIp: instance.internalIp };
      await registerNode(context.cluster.client, registration);

      const node = await waitForInitializedNode(context, instance.nodeName);
      expect(node.spec?.providerID).toBe(instance.expectedProviderId);
      expect(node.metadata.annotations?.[ANNOTATION_PROVIDED_NODE_IP]).toBe(instance.internalIp);
      await waitForAddresses(context, instance, registration);
    });

    it('keeps the node tainted while the provided-node-ip matches no cloud address, and initializes it once it does', async () => {
      const instance = await driver.createInstance(uniqueName('badip'));
      // 192.0.2.0/24 is TEST-NET-1: no cloud hands it out.
      await registerNode(context.cluster.client, { name: instance.nodeName, providedNodeIp: '192.0.2.254' });

      await expectToHold(
        `node ${instance.nodeName} to keep the uninitialized taint and stay without providerID`,
        async (observe) => {
          const node = await context.cluster.client.getNode(instance.nodeName);
          observe(node.spec);
          return findTaint(node, TAINT_UNINITIALIZED) !== undefined && !node.spec?.providerID;
        },
        3_000,
        { abortIf: () => context.cluster.unexpectedExit() },
      );

      // Fixing the annotation is an update event: the controller retries and succeeds.
      await context.cluster.client.patchNode(instance.nodeName, {
        metadata: { annotations: { [ANNOTATION_PROVIDED_NODE_IP]: instance.internalIp } },
      });
      const node = await waitForInitializedNode(context, instance.nodeName);
      expect(node.spec?.providerID).toBe(instance.expectedProviderId);
    });

    it('leaves a node that is already initialized alone', async () => {
      const instance = await driver.createInstance(uniqueName('plain'));
      const name = instance.nodeName;
      // A node without the uninitialized taint (e.g. registered before the CCM existed).
      await context.cluster.client.createNode({ metadata: { name, labels: { 'kubernetes.io/hostname': name } }, spec: {} });
      // Touch it so the controller certainly sees an update event.
      await context.cluster.client.patchNode(name, { metadata: { labels: { 'example.com/touched': 'yes' } } });
      // Give the controller time to act; then nothing from the cloud may have been applied.
      const sentinel = await driver.createInstance(uniqueName('sentinel'));
      await registerNode(context.cluster.client, { name: sentinel.nodeName });
      await waitForInitializedNode(context, sentinel.nodeName);
      const node = await context.cluster.client.getNode(name);
      expect(node.spec?.providerID).toBeUndefined();
      expect(node.metadata.labels?.[LABEL_INSTANCE_TYPE]).toBeUndefined();
    });
  });
}
