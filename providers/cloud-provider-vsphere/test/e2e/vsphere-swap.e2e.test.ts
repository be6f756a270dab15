/**
 * Swapping from the upstream CPI (issue 23): the real vSphere CCM binary against Nodes that the
 * upstream CPI (kubernetes/cloud-provider-vsphere v1.37.0) initialized, with zones, `--node-labels`,
 * two NICs split by network name, a guest hostname in mixed case and a powered-off VM. The
 * conformance swap group checks the common part on every provider; this test adds what only
 * vSphere has: our CCM must write nothing on these Nodes (same resourceVersion; providerID,
 * every label, every address and taint equal), delete none, and leave every VM as it was.
 *
 * The upstream state is written out by hand from upstream's code, not from ours:
 * - providerID: `instancesV2.getProviderID` (`instances_v2.go`) = `vsphere://` + the VM's
 *   `summary.config.uuid` (`search.go` `WhichVCandDCByNodeId`), case kept;
 * - instance type: `nodemanager.go` `DiscoverNode`, `vsphere-vm.cpu-<numCpu>.mem-<MB / 1024>gb.os-<GuestOSLookup>`;
 * - zone and region: the tag names of the `labels.zone` / `labels.region` categories on the host's
 *   ancestors (`connectionmanager/zones.go` `LookupZoneByMoref`);
 * - labels: k8s.io/cloud-provider `getNodeModifiersFromCloudProvider` (stable and beta labels) plus
 *   `AdditionalLabels` (`--node-labels`, `options/flags.go`);
 * - addresses: `DiscoverNode` (Hostname as the guest reports it, then InternalIP and ExternalIP
 *   of the family, chosen by network name when both names are configured);
 * - the shutdown taint of a NotReady node whose VM is off: k8s.io/cloud-provider's node lifecycle
 *   controller.
 *
 * The API server is the real kube-apiserver under CI=true (kube-emulator where it cannot run; see
 * docs/testing.md "Which Kubernetes API server each suite uses").
 *
 * Needs Go >= the go line of e2e/vcsim/go.mod (see docs/testing.md) and the built CCM (`pnpm exec turbo run build`).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LABEL_INSTANCE_TYPE, LABEL_INSTANCE_TYPE_BETA, LABEL_REGION, LABEL_REGION_BETA, LABEL_ZONE, LABEL_ZONE_BETA, TAINT_SHUTDOWN } from '@ccm/core/api';
import { VapiTaggingClient, createVsphereDispatcher } from '@ccm/vsphere-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KubeNode, NodeAddress, Taint } from '../../../../e2e/src/harness/kube-objects.js';
import { kubeletNode, readyCondition } from '../../../../e2e/src/harness/node-registration.js';
import { TestCluster, type CcmInstance } from '../../../../e2e/src/harness/test-cluster.js';
import { outputLines, stackTraceLines } from '../support/ccm-log-assertions.js';
import { buildVcsim, startVcsim, vcsimSuite, type Vcsim, type VcsimCreateVm } from '../support/vcsim.js';
import { VSPHERE_CCM_BIN } from '../conformance/vsphere-driver.js';
import { vcsimVmState } from '../conformance/vsphere-swap-fixture.js';

const TEST_TIMEOUT_MS = 90_000;
const ZONE_CATEGORY = 'k8s-zone';
const REGION_CATEGORY = 'k8s-region';
const ZONE = 'zone-a';
const REGION = 'region-1';
const INTERNAL_NETWORK = 'k8s-internal';
const EXTERNAL_NETWORK = 'k8s-external';
/** The cluster host the node VMs run on (its cluster carries the zone tag, its datacenter the region tag). */
const HOST = 'DC0_C0_H0';
const SHUTDOWN_TAINT: Taint = { key: TAINT_SHUTDOWN, effect: 'NoSchedule' };

/** One node as the upstream CPI left it, and the VM under it. */
interface UpstreamNode {
  name: string;
  vm: VcsimCreateVm;
  /** The instance type upstream computed for `vm` (written out by hand from `DiscoverNode`). */
  instanceType: string;
  /** The addresses upstream's `DiscoverNode` reported, given the VM's guest data; undefined: the simulator's default NIC. */
  addresses?: NodeAddress[];
  poweredOff?: boolean;
  /** The taints upstream's controllers left (none, or the shutdown taint). */
  taints: Taint[];
}

const NODES: UpstreamNode[] = [
  { name: 'swap-plain', vm: { name: 'swap-plain', host: HOST, numCpu: 2, memoryMB: 4096, guestId: 'ubuntu64Guest' }, instanceType: 'vsphere-vm.cpu-2.mem-4gb.os-ubuntu', taints: [] },
  {
    name: 'swap-two-nics',
    vm: {
      name: 'swap-two-nics',
      host: HOST,
      numCpu: 4,
      memoryMB: 3000,
      guestId: 'rhel7_64Guest',
      guest: {
        hostName: 'Swap-Two-NICs.Example.Internal',
        ipAddress: '203.0.113.20',
        net: [
          { network: EXTERNAL_NETWORK, ipAddress: ['203.0.113.20'], deviceConfigId: 4000 },
          { network: INTERNAL_NETWORK, ipAddress: ['fe80::20', '10.20.0.20'], deviceConfigId: 4001 },
        ],
      },
    },
    instanceType: 'vsphere-vm.cpu-4.mem-2gb.os-rhel7',
    addresses: [
      { type: 'Hostname', address: 'Swap-Two-NICs.Example.Internal' },
      { type: 'InternalIP', address: '10.20.0.20' },
      { type: 'ExternalIP', address: '203.0.113.20' },
    ],
    taints: [],
  },
  {
    name: 'swap-powered-off',
    vm: { name: 'swap-powered-off', host: HOST, numCpu: 1, memoryMB: 2048, guestId: 'windows2019srv_64Guest' },
    instanceType: 'vsphere-vm.cpu-1.mem-2gb.os-unknown',
    poweredOff: true,
    taints: [SHUTDOWN_TAINT],
  },
];

/** A NotReady node whose VM went off after upstream stopped: our CCM taints it, which shows its lifecycle passes ran. */
const LIFECYCLE_CANARY: UpstreamNode = {
  name: 'swap-off-since',
  vm: { name: 'swap-off-since', host: HOST, numCpu: 2, memoryMB: 4096, guestId: 'ubuntu64Guest' },
  instanceType: 'vsphere-vm.cpu-2.mem-4gb.os-ubuntu',
  poweredOff: true,
  taints: [],
};

const NODE_LABELS = { 'example.com/team': 'storage' };

interface Seeded {
  node: KubeNode;
  vmState: string;
}

vcsimSuite('swap from the upstream vSphere CPI (binary, Kubernetes API server, vCenter simulator)', () => {
  let started: { vcsim: Vcsim; cluster: TestCluster } | undefined;
  let ccm: CcmInstance | undefined;
  const seeded = new Map<string, Seeded>();
  const simulator = (): Vcsim => running().vcsim;
  const testCluster = (): TestCluster => running().cluster;

  function running(): { vcsim: Vcsim; cluster: TestCluster } {
    if (started === undefined) throw new Error('the simulator and the cluster did not start (see the hook error)');
    return started;
  }

  async function vmStates(): Promise<Map<string, string>> {
    const inventory = await simulator().admin.inventory();
    return new Map(inventory.virtualMachines.map((vm) => [vm.name, vcsimVmState(vm)]));
  }

  /** Tags as an operator set them for the upstream CPI: the zone on the cluster, the region on the datacenter. */
  async function tagZones(): Promise<void> {
    const now = simulator();
    const tagging = new VapiTaggingClient({
      server: now.url,
      credentials: () => ({ username: now.username, password: now.password }),
      dispatcher: createVsphereDispatcher({ ca: now.ca! }),
    });
    const inventory = await now.admin.inventory();
    const host = inventory.hosts.find((entry) => entry.name === HOST);
    const hostCluster = inventory.clusters.find((entry) => entry.ref.value === host?.parent?.value);
    const datacenter = inventory.datacenters.find((entry) => entry.name === 'DC0');
    if (hostCluster === undefined || datacenter === undefined) throw new Error(`vcsim has no cluster of ${HOST} or no DC0: ${JSON.stringify(inventory.clusters)}`);
    const zoneCategory = await tagging.createCategory({ name: ZONE_CATEGORY, associableTypes: ['ClusterComputeResource'] });
    await tagging.attachTag(await tagging.createTag({ name: ZONE, categoryId: zoneCategory }), hostCluster.ref);
    const regionCategory = await tagging.createCategory({ name: REGION_CATEGORY, associableTypes: ['Datacenter'] });
    await tagging.attachTag(await tagging.createTag({ name: REGION, categoryId: regionCategory }), datacenter.ref);
    await tagging.logout();
  }

  /** Creates the VM and registers its Node exactly as the upstream CPI left it. */
  async function seed(upstream: UpstreamNode): Promise<void> {
    const admin = simulator().admin;
    const vm = await admin.createVm(upstream.vm);
    const addresses = upstream.addresses ?? [
      { type: 'Hostname', address: vm.hostName },
      { type: 'InternalIP', address: vm.ipAddress },
      { type: 'ExternalIP', address: vm.ipAddress },
    ];
    if (upstream.poweredOff === true) await admin.powerOff(upstream.name);
    const client = testCluster().client;
    const node = kubeletNode({
      name: upstream.name,
      providerId: `vsphere://${vm.uuid}`,
      labels: {
        [LABEL_INSTANCE_TYPE]: upstream.instanceType,
        [LABEL_INSTANCE_TYPE_BETA]: upstream.instanceType,
        [LABEL_ZONE]: ZONE,
        [LABEL_ZONE_BETA]: ZONE,
        [LABEL_REGION]: REGION,
        [LABEL_REGION_BETA]: REGION,
        ...NODE_LABELS,
      },
    });
    node.spec = { ...node.spec, taints: upstream.taints.map((taint) => ({ ...taint })) };
    await client.createNode(node);
    await client.patchNodeStatus(upstream.name, { status: { addresses, conditions: [readyCondition(upstream.poweredOff !== true)] } });
    seeded.set(upstream.name, { node: await client.getNode(upstream.name), vmState: (await vmStates()).get(upstream.name) ?? 'missing' });
  }

  beforeAll(async () => {
    if (!existsSync(VSPHERE_CCM_BIN)) {
      throw new Error(`the vSphere CCM is not built: ${VSPHERE_CCM_BIN} is missing (run \`pnpm exec turbo run build\` at the repository root)`);
    }
    await buildVcsim();
    const vcsim = await startVcsim();
    try {
      started = { vcsim, cluster: await TestCluster.start({ manifestsOverlay: 'vsphere' }) };
    } catch (error) {
      await vcsim.stop();
      throw error;
    }
    await tagZones();
    for (const upstream of [...NODES, LIFECYCLE_CANARY]) await seed(upstream);
    const configPath = join(testCluster().directory, 'vsphere.yaml');
    const server = new URL(simulator().url);
    await writeFile(
      configPath,
      [
        'global:',
        `  user: ${JSON.stringify(simulator().username)}`,
        `  password: ${JSON.stringify(simulator().password)}`,
        `  caFile: ${simulator().caFile}`,
        'vcenter:',
        '  vcsim:',
        `    server: ${server.hostname}`,
        `    port: ${server.port}`,
        'labels:',
        `  zone: ${ZONE_CATEGORY}`,
        `  region: ${REGION_CATEGORY}`,
        'nodes:',
        `  internalVmNetworkName: ${INTERNAL_NETWORK}`,
        `  externalVmNetworkName: ${EXTERNAL_NETWORK}`,
        '',
      ].join('\n'),
      { mode: 0o600 },
    );
    const nodeLabels = Object.entries(NODE_LABELS).map(([key, value]) => `${key}=${value}`).join(',');
    ccm = await testCluster().startCcm(
      { command: process.execPath, args: [VSPHERE_CCM_BIN, '--cloud-provider=vsphere', `--cloud-config=${configPath}`, `--node-labels=${nodeLabels}`] },
      { label: 'vsphere-swap-ccm' },
    );
  }, 300_000);

  afterAll(async () => {
    if (process.env['CCM_E2E_SHOW_OUTPUT'] === '1') console.log(`CCM output:\n${started?.cluster.report(5_000)}`);
    await Promise.allSettled([started?.cluster.close(), started?.vcsim.stop()]);
    started = undefined;
  });

  it(
    'writes nothing on the Nodes upstream initialized (providerID, labels, addresses, taints), deletes none, and leaves every VM as it was',
    async (context) => {
      context.onTestFailed(() => {
        if (started !== undefined) console.error(`CCM output:\n${started.cluster.report(400)}`);
      });
      const client = testCluster().client;
      const swapCcm = ccm;
      if (swapCcm === undefined) throw new Error('the CCM did not start');
      // Our lifecycle passes ran: the NotReady node whose VM is off got the shutdown taint.
      await testCluster().waitFor(`the shutdown taint on ${LIFECYCLE_CANARY.name}`, async (observe) => {
        const node = await client.getNode(LIFECYCLE_CANARY.name);
        observe(node.spec?.taints);
        return (node.spec?.taints ?? []).some((taint) => taint.key === TAINT_SHUTDOWN);
      });
      // Two node status passes over every Node after that (addresses read again from vCenter).
      const passesBefore = statusPasses(swapCcm);
      await testCluster().waitFor('two node status passes over every Node', () => statusPasses(swapCcm) >= passesBefore + 2);

      const nodes = new Map((await client.listNodes()).map((node) => [node.metadata.name ?? '', node]));
      expect([...nodes.keys()].sort(), 'no Node deleted').toEqual([...NODES, LIFECYCLE_CANARY].map((entry) => entry.name).sort());
      for (const upstream of NODES) {
        const before = seeded.get(upstream.name)?.node;
        const after = nodes.get(upstream.name);
        expect(nodeView(after), `${upstream.name} as upstream left it`).toEqual(nodeView(before));
        expect(after?.metadata.resourceVersion, `nothing written on ${upstream.name}`).toBe(before?.metadata.resourceVersion);
      }
      const states = await vmStates();
      for (const [name, entry] of seeded) expect(states.get(name), `the VM of ${name}`).toBe(entry.vmState);
      expect(stackTraceLines(outputLines(swapCcm))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

/** Node status passes over all the Nodes of this test (core logs `Update N nodes status took` at --v=2). */
function statusPasses(ccm: CcmInstance): number {
  const everyNode = NODES.length + 1;
  return outputLines(ccm).filter((line) => Number(/Update (\d+) nodes status took/.exec(line)?.[1] ?? 0) >= everyNode).length;
}

function nodeView(node: KubeNode | undefined): unknown {
  return { providerID: node?.spec?.providerID, labels: node?.metadata.labels, addresses: node?.status?.addresses, taints: node?.spec?.taints ?? [] };
}
