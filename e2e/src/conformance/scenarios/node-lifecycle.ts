import { TAINT_SHUTDOWN } from '@ccm/core/api';
import { describe, expect, it } from 'vitest';
import { findTaint, setNodeReady } from '../../harness/node-registration.js';
import { expectToHold } from '../../harness/wait-for.js';
import type { ProviderDriver } from '../provider-driver.js';
import { SCENARIO_TIMEOUT_MS, useGroupCluster } from '../scenario-context.js';
import { addInitializedNode, waitForEvent } from '../scenario-helpers.js';

/** A few node-monitor periods (1 s each in the suite). */
const MONITOR_PERIODS_MS = 3_000;

/** Cloud node lifecycle controller: deletion of gone instances and the shutdown taint. */
export function registerNodeLifecycleScenarios(driver: ProviderDriver): void {
  describe('node lifecycle', { timeout: SCENARIO_TIMEOUT_MS }, () => {
    const context = useGroupCluster(driver);

    it('deletes a NotReady node whose instance is gone and keeps a Ready one', async () => {
      const notReady = await addInitializedNode(context, 'gone-notready');
      const ready = await addInitializedNode(context, 'gone-ready');
      const client = context.cluster.client;

      await setNodeReady(client, notReady.instance.nodeName, false);
      await driver.deleteInstance(notReady.instance);
      await driver.deleteInstance(ready.instance);

      await context.cluster.waitFor(`NotReady node ${notReady.instance.nodeName} to be deleted`, async (observe) => {
        const node = await client.findNode(notReady.instance.nodeName);
        observe(node?.status?.conditions);
        return node === undefined;
      });
      const event = await waitForEvent(context, {
        kind: 'Node',
        name: notReady.instance.nodeName,
        reason: 'DeletingNode',
        type: 'Normal',
      });
      expect(event.message).toBe(`Deleting node ${notReady.instance.nodeName} because it does not exist in the cloud provider`);
      expect(event.involvedObject).toMatchObject({ apiVersion: 'v1', kind: 'Node', uid: notReady.node.metadata.uid });

      await expectToHold(
        `Ready node ${ready.instance.nodeName} (instance gone) to be kept`,
        async () => (await client.findNode(ready.instance.nodeName)) !== undefined,
        MONITOR_PERIODS_MS,
        { abortIf: () => context.cluster.unexpectedExit() },
      );
    });

    it('taints a NotReady node whose instance is shut down and untaints it once started and Ready', async () => {
      const { instance } = await addInitializedNode(context, 'stop');
      const client = context.cluster.client;
      const name = instance.nodeName;

      // NotReady but running: neither deleted nor tainted.
      await setNodeReady(client, name, false);
      await expectToHold(
        `NotReady node ${name} with a running instance to stay untainted`,
        async (observe) => {
          const node = await client.findNode(name);
          observe(node?.spec?.taints);
          return node !== undefined && findTaint(node, TAINT_SHUTDOWN) === undefined;
        },
        MONITOR_PERIODS_MS,
        { abortIf: () => context.cluster.unexpectedExit() },
      );

      await driver.stopInstance(instance);
      const tainted = await context.cluster.waitFor(`node ${name} to get the shutdown taint`, async (observe) => {
        const node = await client.getNode(name);
        observe(node.spec?.taints);
        return findTaint(node, TAINT_SHUTDOWN, 'NoSchedule');
      });
      expect(tainted.value ?? '').toBe('');
      expect(await client.findNode(name), 'a stopped instance is not a deleted one').toBeDefined();

      await driver.startInstance(instance);
      await setNodeReady(client, name, true);
      await context.cluster.waitFor(`node ${name} to lose the shutdown taint`, async (observe) => {
        const node = await client.getNode(name);
        observe(node.spec?.taints);
        return findTaint(node, TAINT_SHUTDOWN) === undefined;
      });
      expect(await client.findNode(name)).toBeDefined();
    });
  });
}
