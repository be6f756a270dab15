/**
 * Every flag upstream's GCP cloud-controller-manager adds to k8s.io/cloud-provider's command
 * (kubernetes/cloud-provider-gcp, docs/parity.md "GCP") is accepted by our bin, with upstream's
 * default; the implemented one takes effect, the others are documented as ignored and logged
 * once when set away from their default; bad values stop the command with a message naming the
 * flag. The k8s.io/cloud-provider flags are checked in core (`packages/core/src/app/upstream-flags.test.ts`).
 */
import { runCloudControllerManager } from '@ccm/core/app';
import { CloudProviderRegistry } from '@ccm/core/provider';
import { describeUpstreamBinaryFlagsContract, noEffectLines, type UpstreamBinaryFlag } from '@ccm/testing/contract';
import { describe, expect, it } from 'vitest';
import type { ControllerContext } from '@ccm/core/controllers';
import { gcpControllerManagerExtensions, startNodeIpamController } from '../src/cloud-controller-manager/gcp-controller-manager-extensions.js';
import { GCP_FLAG_GROUPS, parseSourceRanges } from '../src/cloud-controller-manager/gcp-flags.js';
import { renderGcpReference } from '../src/docs/render-gcp-reference.js';
import { defineGcpCloudProvider } from '../src/gcp-cloud.js';
import { CLUSTER_ID, createHarness, gceConf, makeNode, makeService, ZONE } from './helpers.js';

/** By source file (upstream `main.go` at the stored commits `b6805760` / `007d168b`, the nodeipam options at `4f0d0f60`, `gce_loadbalancer.go`). */
const UPSTREAM_GCP_FLAGS: Record<string, readonly UpstreamBinaryFlag[]> = {
  'cmd/cloud-controller-manager/main.go (GCE Cloud Provider)': [
    { flag: 'enable-multi-project', upstreamDefault: false, value: 'true', implemented: false },
    { flag: 'enable-discrete-port-forwarding', upstreamDefault: false, value: 'true', implemented: false },
    { flag: 'enable-rbs-default-l4-netlb', upstreamDefault: false, value: 'true', implemented: false },
    { flag: 'enable-l4-lb-annotations', upstreamDefault: false, value: 'true', implemented: false },
    { flag: 'enable-l4-deny-firewall-rollback-cleanup', upstreamDefault: false, value: 'true', implemented: false },
    { flag: 'enable-l4-deny-firewall', upstreamDefault: false, value: 'true', implemented: false },
    { flag: 'enable-gke-tenant-controller', upstreamDefault: false, value: 'true', implemented: false },
  ],
  'cmd/cloud-controller-manager/options/nodeipamcontroller.go (nodeipam controller)': [
    { flag: 'service-cluster-ip-range', upstreamDefault: '', value: '10.96.0.0/12,fd00::/108', implemented: false },
    { flag: 'node-cidr-mask-size', upstreamDefault: 0, value: '24', implemented: false },
    { flag: 'node-cidr-mask-size-ipv4', upstreamDefault: 0, value: '25', implemented: false },
    { flag: 'node-cidr-mask-size-ipv6', upstreamDefault: 0, value: '80', implemented: false },
    { flag: 'enable-multi-subnet-cluster', upstreamDefault: false, value: 'true', implemented: false },
    { flag: 'enable-multi-networking', upstreamDefault: false, value: 'true', implemented: false },
    { flag: 'enable-node-network-config', upstreamDefault: false, value: 'true', implemented: false },
  ],
  'providers/gce/gce_loadbalancer.go init (hoisted into "generic" by k8s.io/cloud-provider)': [
    { flag: 'cloud-provider-gce-lb-src-cidrs', upstreamDefault: '130.211.0.0/22,209.85.152.0/22,209.85.204.0/22,35.191.0.0/16', value: '35.191.0.0/16,130.211.0.0/22', implemented: true },
    { flag: 'cloud-provider-gce-l7lb-src-cidrs', upstreamDefault: '130.211.0.0/22,35.191.0.0/16', value: '130.211.0.0/22', implemented: false },
  ],
};

async function run(argv: string[]): Promise<{ code: number; stderr: string; healthCheckSourceRanges: readonly string[] }> {
  let stderr = '';
  const sink = { write: (text: string) => ((stderr += text), true) };
  const extensions = gcpControllerManagerExtensions();
  const code = await runCloudControllerManager({
    commandName: 'gcp-cloud-controller-manager',
    registry: defineGcpCloudProvider({ healthCheckSourceRanges: extensions.healthCheckSourceRanges }).register(new CloudProviderRegistry()),
    argv,
    defaultCloudProvider: 'gce',
    stdout: sink,
    stderr: sink,
    handleSignals: false,
    ...extensions.settings,
  });
  return { code, stderr, healthCheckSourceRanges: extensions.healthCheckSourceRanges() };
}

describeUpstreamBinaryFlagsContract({ binary: 'gcp-cloud-controller-manager', flagsBySource: UPSTREAM_GCP_FLAGS, groups: GCP_FLAG_GROUPS, renderReference: renderGcpReference, run });

describe('bad values of the GCP flags stop the command with one message naming the flag', () => {
  it.each([
    ['--enable-multi-project=maybe', '--enable-multi-project'],
    ['--cloud-provider-gce-lb-src-cidrs=130.211.0.0/22,35.191.0.0/33', 'invalid CIDR address: 35.191.0.0/33'],
    ['--cloud-provider-gce-lb-src-cidrs=', '--cloud-provider-gce-lb-src-cidrs'],
    ['--cloud-provider-gce-l7lb-src-cidrs=not-a-cidr', '--cloud-provider-gce-l7lb-src-cidrs'],
    ['--node-cidr-mask-size-ipv4=33', '--node-cidr-mask-size-ipv4'],
    ['--node-cidr-mask-size=twenty', '--node-cidr-mask-size'],
    ['--service-cluster-ip-range=10.0.0.0/16,fd00::/108,10.1.0.0/16', 'can not contain more than two entries'],
    ['--service-cluster-ip-range=10.0.0.0', '--service-cluster-ip-range'],
  ])('%s: exit 2', async (argument, named) => {
    const { code, stderr } = await run([argument, '--kubeconfig=/nonexistent/kubeconfig']);
    expect(code, stderr).toBe(2);
    expect(stderr).toContain(named);
    expect(stderr.split('\n').filter((line) => line.startsWith('error: '))).toHaveLength(1);
  });

  it('--enable-l4-deny-firewall without --enable-l4-deny-firewall-rollback-cleanup stops the command (upstream klog.Fatal)', async () => {
    const { code, stderr } = await run(['--enable-l4-deny-firewall', '--kubeconfig=/nonexistent/kubeconfig']);
    expect(code).not.toBe(0);
    expect(stderr).toContain('--enable-l4-deny-firewall requires --enable-l4-deny-firewall-rollback-cleanup to be true');
    expect(stderr).not.toContain('/nonexistent/kubeconfig');
  });
});

describe('--cloud-provider-gce-lb-src-cidrs: the source ranges of the health-check firewalls', () => {
  it('reaches the provider from the command line, and defaults to Google\'s health checkers', async () => {
    const given = await run(['--cloud-provider-gce-lb-src-cidrs=35.191.0.0/16,130.211.0.0/22', '--kubeconfig=/nonexistent/kubeconfig']);
    expect(given.code, given.stderr).toBe(1);
    expect(given.healthCheckSourceRanges).toEqual(['130.211.0.0/22', '35.191.0.0/16']);
    expect(noEffectLines(given.stderr, 'cloud-provider-gce-lb-src-cidrs')).toEqual([]);
    expect((await run(['--kubeconfig=/nonexistent/kubeconfig'])).healthCheckSourceRanges).toEqual(['130.211.0.0/22', '209.85.152.0/22', '209.85.204.0/22', '35.191.0.0/16']);
  });

  it('canonical networks, without duplicates, sorted (upstream keeps a set of networks)', () => {
    expect(parseSourceRanges('35.191.0.1/16,130.211.0.0/22,35.191.0.0/16')).toEqual(['130.211.0.0/22', '35.191.0.0/16']);
  });

  it('the external and the internal load balancers\' health-check firewalls open the given ranges', async () => {
    const ranges = ['10.10.0.0/16', '192.0.2.0/24'];
    const { cloud, compute } = await createHarness({ config: gceConf('node-tags = k8s-node\n'), cloud: { healthCheckSourceRanges: () => ranges } });
    compute.addInstance(ZONE, 'node-1');
    const nodes = [makeNode('node-1')];
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), nodes);
    expect(compute.firewalls.get(`k8s-${CLUSTER_ID}-node-http-hc`)?.sourceRanges).toEqual(ranges);
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService({ name: 'internal', uid: '99999999-2222-3333-4444-555555555555', annotations: { 'networking.gke.io/load-balancer-type': 'Internal' } }), nodes);
    expect(compute.firewalls.get(`k8s-${CLUSTER_ID}-node-hc`)?.sourceRanges).toEqual(ranges);
  });

  it('defaults to Google\'s health checkers', async () => {
    const { cloud, compute } = await createHarness({ config: gceConf('node-tags = k8s-node\n') });
    compute.addInstance(ZONE, 'node-1');
    await cloud.loadBalancer().ensureLoadBalancer('kubernetes', makeService(), [makeNode('node-1')]);
    expect(compute.firewalls.get(`k8s-${CLUSTER_ID}-node-http-hc`)?.sourceRanges).toEqual(['130.211.0.0/22', '209.85.152.0/22', '209.85.204.0/22', '35.191.0.0/16']);
  });
});

describe('the controller name nodeipam that upstream adds to --controllers', () => {
  it('is known: --controllers=*,-nodeipam (how upstream deployments turn it off) and nodeipam itself pass (the run stops at the missing kubeconfig, exit 1)', async () => {
    for (const controllers of ['*,-nodeipam', 'cloud-node,nodeipam']) {
      const { code, stderr } = await run([`--controllers=${controllers}`, '--kubeconfig=/nonexistent/kubeconfig']);
      expect(code, controllers).toBe(1);
      expect(stderr).not.toContain('--controllers');
      expect(stderr).toContain('/nonexistent/kubeconfig');
    }
    const unknown = await run(['--controllers=*,nodeipams']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--controllers: "nodeipams" is not in the list of known controllers');
  });

  it('is always skipped (not implemented): without --allocate-node-cidrs with upstream\'s reason, with it saying where pod CIDRs must come from', () => {
    const context = (allocateNodeCidrs: boolean) => ({ config: { allocateNodeCidrs } }) as unknown as ControllerContext;
    expect(startNodeIpamController(context(false))).toEqual({ skipped: 'the AllocateNodeCIDRs is not enabled' });
    const withCidrs = startNodeIpamController(context(true));
    expect('skipped' in withCidrs && withCidrs.skipped).toMatch(/node IPAM controller is not implemented .*kube-controller-manager's node IPAM or VPC-native alias IP ranges .*--controllers=\*,-nodeipam/);
  });
});
