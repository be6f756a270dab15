import type { InstancesV2 } from '@ccm/core/provider';
import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { makeNode } from '../builders/make-node.js';
import type { ContractFixture, ContractInstance, ContractSetup, InstancesV2ContractOptions } from './contract-fixture.js';
import { frozenInput } from './deep-freeze.js';
import { useContractFixture } from './fixture-lifecycle.js';

function instancesOf(fixture: ContractFixture): InstancesV2 {
  const instances = fixture.provider.instancesV2?.();
  if (instances === undefined) throw new Error(`provider ${fixture.provider.providerName} does not support InstancesV2`);
  return instances;
}

/** The Node a kubelet registers for `instance` once the node controller has set its providerID. */
function initializedNode(instance: ContractInstance): V1Node {
  return makeNode(instance.nodeName, { providerId: instance.providerId });
}

/** The Node as a kubelet with --cloud-provider=external registers it: no providerID yet. */
function registeredNode(instance: ContractInstance): V1Node {
  return makeNode(instance.nodeName, { uninitialized: true });
}

/**
 * Registers the InstancesV2 contract (core-checklist §1.4, §2a, §2b) for a provider:
 * exists is true for running and stopped instances and false (no error) for deleted ones;
 * shutdown is true only for stopped instances; metadata carries `<providerName>://...`;
 * inputs are never mutated.
 */
export function describeInstancesV2Contract(name: string, setup: ContractSetup, options: InstancesV2ContractOptions = {}): void {
  const lookupByNodeName = options.lookupByNodeName ?? true;

  describe(`InstancesV2 contract: ${name}`, () => {
    const fixture = useContractFixture(setup);

    it('is supported', () => {
      expect(fixture().provider.instancesV2?.()).toBeDefined();
    });

    it('reports a running instance as existing and not shut down', async () => {
      const instance = await fixture().cloud.createInstance('contract-running');
      const node = initializedNode(instance);
      await expect(instancesOf(fixture()).instanceExists(node)).resolves.toBe(true);
      await expect(instancesOf(fixture()).instanceShutdown(node)).resolves.toBe(false);
    });

    it('reports a stopped instance as existing and shut down', async () => {
      const instance = await fixture().cloud.createInstance('contract-stopped');
      await fixture().cloud.stopInstance(instance);
      const node = initializedNode(instance);
      await expect(instancesOf(fixture()).instanceExists(node)).resolves.toBe(true);
      await expect(instancesOf(fixture()).instanceShutdown(node)).resolves.toBe(true);
    });

    it('reports a restarted instance as no longer shut down', async () => {
      const instance = await fixture().cloud.createInstance('contract-restarted');
      await fixture().cloud.stopInstance(instance);
      await fixture().cloud.startInstance(instance);
      await expect(instancesOf(fixture()).instanceShutdown(initializedNode(instance))).resolves.toBe(false);
    });

    it('reports a deleted instance as not existing, without an error', async () => {
      const instance = await fixture().cloud.createInstance('contract-deleted');
      await fixture().cloud.deleteInstance(instance);
      await expect(instancesOf(fixture()).instanceExists(initializedNode(instance))).resolves.toBe(false);
    });

    it('returns metadata with a <providerName>:// provider ID and the instance details', async () => {
      const instance = await fixture().cloud.createInstance('contract-metadata');
      const metadata = await instancesOf(fixture()).instanceMetadata(initializedNode(instance));
      expect(metadata).toBeDefined();
      expect(metadata!.providerId.startsWith(`${fixture().provider.providerName}://`)).toBe(true);
      expect(metadata!.providerId).toBe(instance.providerId);
      expect(metadata!.nodeAddresses.length).toBeGreaterThan(0);
      if (instance.expectedAddresses !== undefined) expect(metadata!.nodeAddresses).toEqual(instance.expectedAddresses);
      if (instance.expectedInstanceType !== undefined) expect(metadata!.instanceType).toBe(instance.expectedInstanceType);
      if (instance.expectedZone !== undefined) expect(metadata!.zone).toBe(instance.expectedZone);
      if (instance.expectedRegion !== undefined) expect(metadata!.region).toBe(instance.expectedRegion);
      for (const key of Object.keys(metadata!.additionalLabels ?? {})) {
        expect(key).not.toMatch(/(^|\.)(kubernetes|k8s)\.io\//);
      }
    });

    it('returns the same metadata on every call', async () => {
      const instance = await fixture().cloud.createInstance('contract-stable');
      const first = await instancesOf(fixture()).instanceMetadata(initializedNode(instance));
      const second = await instancesOf(fixture()).instanceMetadata(initializedNode(instance));
      expect(second).toEqual(first);
    });

    if (lookupByNodeName) {
      it('finds the instance by Node name when the Node has no providerID yet', async () => {
        const instance = await fixture().cloud.createInstance('contract-by-name');
        const node = registeredNode(instance);
        const metadata = await instancesOf(fixture()).instanceMetadata(node);
        expect(metadata?.providerId).toBe(instance.providerId);
        await expect(instancesOf(fixture()).instanceExists(node)).resolves.toBe(true);
        await expect(instancesOf(fixture()).instanceShutdown(node)).resolves.toBe(false);
      });
    }

    it('never mutates the Node it is given', async () => {
      const running = await fixture().cloud.createInstance('contract-frozen-running');
      const stopped = await fixture().cloud.createInstance('contract-frozen-stopped');
      await fixture().cloud.stopInstance(stopped);
      const instances = instancesOf(fixture());
      const nodes = [initializedNode(running), initializedNode(stopped)];
      if (lookupByNodeName) nodes.push(registeredNode(running));
      for (const node of nodes) {
        const { input, original } = frozenInput(node);
        await instances.instanceExists(input);
        await instances.instanceShutdown(input);
        await instances.instanceMetadata(input);
        expect(input).toEqual(original);
      }
    });
  });
}
