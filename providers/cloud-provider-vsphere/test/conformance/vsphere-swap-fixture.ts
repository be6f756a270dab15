/**
 * The swap scenario's fixture for vSphere (issue 23 point 3): what the upstream CPI
 * (kubernetes/cloud-provider-vsphere v1.37.0, docs/parity.md "vSphere") leaves behind.
 *
 * Upstream's vSphere CCM writes nothing into vCenter: it has no load balancers and no routes
 * without NSX-T (not in our build), and its node manager only reads VMs (`nodemanager.go`
 * `DiscoverNode`, `connectionmanager/search.go` `WhichVCandDCByNodeId`) and tags
 * (`connectionmanager/zones.go` `LookupZoneByMoref`). What it leaves are the Nodes it initialized,
 * which the scenario registers from each instance's expected values (the driver computes those as
 * upstream does; `seedUpstream` checks the provider ID against vCenter's own UUID). So the
 * inventories hold what our CCM must never change in vCenter either:
 * - `user`: the node VMs the user made and upstream only read (their UUID, power state and host):
 *   deleting a Node must not power off or destroy its VM;
 * - `foreign`: a node VM of another cluster sharing the vCenter;
 * - `loadBalancers` and `routes`: always empty.
 */
import type {
  ProviderSwapFixture,
  SwapInventory,
  SwapNodeSeed,
  SwapServiceSeed,
  SwapServiceVariant,
  UpstreamServiceState,
} from '@ccm/testing/conformance';
import type { VcsimAdmin, VcsimVm } from '../support/vcsim-admin.js';

/** What the fixture needs of the driver: the simulator's admin API once started. */
export interface VsphereSwapFixtureOptions {
  admin(): VcsimAdmin;
}

/** A node VM of another Kubernetes cluster in the same vCenter. */
const OTHER_CLUSTER_VM = 'other-cluster-swap-node';

/**
 * Upstream `instancesV2.getProviderID` (`instances_v2.go`): `ProviderName + "://" + InstanceID`,
 * where `instances.InstanceID` (`instances.go`) returns the `NodeInfo.UUID` that
 * `WhichVCandDCByNodeId` (`search.go`) took from the VM's `summary.config.uuid` as vCenter
 * reports it (no change of case).
 */
export function upstreamProviderId(vm: Pick<VcsimVm, 'uuid'>): string {
  return `vsphere://${vm.uuid}`;
}

/** What deleting or adopting must not change of a VM: its UUID, power state and host. */
export function vcsimVmState(vm: VcsimVm): string {
  return `uuid=${vm.uuid} power=${vm.powerState} host=${vm.host.name}`;
}

export class VsphereSwapFixture implements ProviderSwapFixture {
  /** vSphere names nothing after the cluster; long like the other providers' anyway. */
  readonly clusterName = 'swap-upstream-vsphere-cpi-cluster-0123456789abc';
  readonly #options: VsphereSwapFixtureOptions;
  /** The node VMs of the swap's Nodes, by name (the `user` inventory). */
  readonly #nodeVms = new Set<string>();
  #otherClusterVm: string | undefined;

  constructor(options: VsphereSwapFixtureOptions) {
    this.#options = options;
  }

  /** The vSphere CCM offers no load balancers: no Service of the scenario. */
  userServices(): Promise<SwapServiceVariant[]> {
    return Promise.resolve([]);
  }

  async seedUpstream(input: { services: SwapServiceSeed[]; nodes: SwapNodeSeed[] }): Promise<UpstreamServiceState[]> {
    if (input.services.length > 0) {
      throw new Error(`the vSphere swap fixture got ${input.services.length} Services: the vSphere CCM has no load balancers (capabilities.loadBalancer is false)`);
    }
    const admin = this.#options.admin();
    const vms = new Map((await admin.inventory()).virtualMachines.map((vm) => [vm.name, vm]));
    for (const { instance } of input.nodes) {
      const vm = vms.get(instance.nodeName);
      if (vm === undefined) throw new Error(`the swap node ${instance.nodeName} has no VM in the simulator`);
      // The Node must carry exactly what upstream wrote, or the scenario proves nothing.
      if (instance.expectedProviderId !== upstreamProviderId(vm)) {
        throw new Error(`the swap node ${instance.nodeName} expects providerID ${instance.expectedProviderId}; upstream wrote ${upstreamProviderId(vm)}`);
      }
      this.#nodeVms.add(instance.nodeName);
    }
    // Another cluster's node in the same datacenter: its VM is found by nothing of ours.
    await admin.createVm({ name: OTHER_CLUSTER_VM, numCpu: 4, memoryMB: 8192, guestId: 'ubuntu64Guest' });
    this.#otherClusterVm = OTHER_CLUSTER_VM;
    return [];
  }

  async inventory(): Promise<SwapInventory> {
    const vms = new Map((await this.#options.admin().inventory()).virtualMachines.map((vm) => [vm.name, vm]));
    const stateOf = (names: Iterable<string>): Record<string, string> => {
      const states: Record<string, string> = {};
      for (const name of names) {
        const vm = vms.get(name);
        if (vm !== undefined) states[`vm/${name}`] = vcsimVmState(vm);
      }
      return states;
    };
    return {
      loadBalancers: {},
      routes: {},
      user: stateOf(this.#nodeVms),
      foreign: stateOf(this.#otherClusterVm === undefined ? [] : [this.#otherClusterVm]),
    };
  }

  /** Destroys the other cluster's VM; the node VMs stay with the driver (as every scenario's instances). */
  async cleanUp(): Promise<void> {
    if (this.#otherClusterVm !== undefined) await this.#options.admin().destroy(this.#otherClusterVm);
    this.#otherClusterVm = undefined;
    this.#nodeVms.clear();
  }
}
