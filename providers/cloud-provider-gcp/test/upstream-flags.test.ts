/**
 * Every flag upstream's GCP cloud-controller-manager adds to k8s.io/cloud-provider's command
 * (kubernetes/cloud-provider-gcp, docs/parity.md "GCP") is accepted by our bin, with upstream's
 * default; the implemented one takes effect, the others are documented as ignored and logged
 * once when set away from their default; bad values stop the command with a message naming the
 * flag. The k8s.io/cloud-provider flags are checked in core (`packages/core/src/app/upstream-flags.test.ts`).
 */
import { CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS, parseCommandLine, runCloudControllerManager } from '@ccm/core/app';
import { CloudProviderRegistry } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import { gcpControllerManagerExtensions } from '../src/cloud-controller-manager/gcp-controller-manager-extensions.js';
import { GCP_FLAG_GROUPS, parseSourceRanges } from '../src/cloud-controller-manager/gcp-flags.js';
import { renderGcpReference } from '../src/docs/render-gcp-reference.js';
import { defineGcpCloudProvider } from '../src/gcp-cloud.js';
import { CLUSTER_ID, createHarness, gceConf, makeNode, makeService, ZONE } from './helpers.js';

interface UpstreamFlag {
  flag: string;
  /** Upstream's default, as our registry holds it. */
  upstreamDefault: boolean | number | string;
  /** A value upstream accepts, other than the default. */
  value: string;
  implemented: boolean;
}

/** By source file (upstream `main.go` at the stored commits `b6805760` / `007d168b`, the nodeipam options at `4f0d0f60`, `gce_loadbalancer.go`). */
const UPSTREAM_GCP_FLAGS: Record<string, readonly UpstreamFlag[]> = {
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

const ALL = Object.entries(UPSTREAM_GCP_FLAGS).flatMap(([source, flags]) => flags.map((flag) => ({ source, ...flag })));

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

const noEffectLines = (stderr: string, flag: string): string[] => stderr.split('\n').filter((line) => line.includes(`Flag --${flag} is accepted for compatibility but has no effect`));

describe('every upstream GCP cloud-controller-manager flag is accepted by our bin', () => {
  it('lists each upstream flag once, and the bin declares no other', () => {
    const names = ALL.map(({ flag }) => flag);
    expect(new Set(names).size).toBe(names.length);
    const declared = GCP_FLAG_GROUPS.flatMap((group) => Object.values(group.flags).map((definition) => definition.name));
    expect([...declared].sort()).toEqual([...names].sort());
  });

  it.each(ALL)('--$flag ($source): upstream default, a non-default value parses, status as declared', ({ flag, upstreamDefault, value, implemented }) => {
    const defaults = parseCommandLine([], { additionalFlags: GCP_FLAG_GROUPS });
    if (defaults.kind !== 'run') throw new Error(defaults.kind);
    expect(defaults.flags.value(flag)).toBe(upstreamDefault);
    const result = parseCommandLine([`--${flag}=${value}`], { additionalFlags: GCP_FLAG_GROUPS });
    if (result.kind !== 'run') throw new Error(result.kind);
    expect(result.flags.setFlags()).toContain(flag);
    expect(result.flags.differsFromDefault(flag)).toBe(true);
    expect(result.registry.definition(flag)?.ignored === undefined).toBe(implemented);
  });

  it.each(ALL)('--$flag has a row in the generated docs with its status', ({ flag, implemented }) => {
    const row = renderGcpReference()
      .split('\n')
      .find((line) => line.startsWith(`| \`--${flag}\` |`));
    expect(row, `docs/cloud-controller-manager.md lists --${flag}`).toBeDefined();
    if (implemented) expect(row).toContain('| supported |');
    else expect(row).toContain('| ignored: ');
  });

  it('the bin keeps every core flag (the k8s.io/cloud-provider part of upstream\'s command)', () => {
    const result = parseCommandLine([], { additionalFlags: GCP_FLAG_GROUPS });
    if (result.kind !== 'run') throw new Error(result.kind);
    const core = CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS.flatMap((group) => Object.values(group.flags).map((definition) => definition.name));
    expect(core.filter((name) => result.registry.definition(name) === undefined)).toEqual([]);
  });

  it('all of them together pass validation; each ignored one is logged once, and --cloud-provider-gce-lb-src-cidrs reaches the provider', async () => {
    const { code, stderr, healthCheckSourceRanges } = await run([...ALL.map(({ flag, value }) => `--${flag}=${value}`), '--kubeconfig=/nonexistent/kubeconfig']);
    expect(code, stderr).toBe(1);
    expect(stderr).toContain('/nonexistent/kubeconfig');
    for (const { flag, implemented } of ALL) expect(noEffectLines(stderr, flag), `--${flag}`).toHaveLength(implemented ? 0 : 1);
    expect(healthCheckSourceRanges).toEqual(['130.211.0.0/22', '35.191.0.0/16']);
  });

  it('an ignored flag given its default value is not logged', async () => {
    const { code, stderr } = await run(['--enable-multi-project=false', '--node-cidr-mask-size=0', '--kubeconfig=/nonexistent/kubeconfig']);
    expect(code, stderr).toBe(1);
    expect(noEffectLines(stderr, 'enable-multi-project')).toEqual([]);
    expect(noEffectLines(stderr, 'node-cidr-mask-size')).toEqual([]);
  });
});

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
