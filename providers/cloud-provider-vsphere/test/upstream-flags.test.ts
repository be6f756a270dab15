/**
 * Every flag of the upstream vsphere-cloud-controller-manager release we claim (docs/testing.md:
 * kubernetes/cloud-provider-vsphere v1.37.0) is accepted by our bin. Upstream's command is
 * k8s.io/cloud-provider's command plus the flag sets its `main.go` adds; the k8s.io/cloud-provider
 * flags are listed and checked in core (`packages/core/src/app/upstream-flags.test.ts`), so here:
 * the vSphere additions by source file, and that the bin's flag registry still holds every core flag.
 */
import { CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS, parseCommandLine, runCloudControllerManager } from '@ccm/core/app';
import { CloudProviderRegistry } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import { vsphereControllerManagerExtensions } from '../src/cloud-controller-manager/vsphere-controller-manager-extensions.js';
import { defineVsphereCloudProvider } from '../src/vsphere-cloud.js';

/** Flags upstream's vSphere command adds to the core command, with a value upstream accepts. */
const UPSTREAM_VSPHERE_FLAGS: Record<string, ReadonlyArray<readonly [flag: string, value: string]>> = {
  // pkg/cloudprovider/vsphere/options/flags.go AddFlags (pflag StringToStringVar into vsphere.AdditionalLabels)
  'pkg/cloudprovider/vsphere/options/flags.go': [['node-labels', 'node.foo.bar=vsphere,foo.bar/mapi=']],
};

const ALL = Object.entries(UPSTREAM_VSPHERE_FLAGS).flatMap(([source, flags]) => flags.map(([flag, value]) => ({ source, flag, value })));

async function run(argv: string[]): Promise<{ code: number; stderr: string; nodeLabels: Readonly<Record<string, string>> }> {
  let stderr = '';
  const sink = { write: (text: string) => ((stderr += text), true) };
  const extensions = vsphereControllerManagerExtensions();
  const code = await runCloudControllerManager({
    commandName: 'vsphere-cloud-controller-manager',
    registry: defineVsphereCloudProvider({ nodeLabels: extensions.nodeLabels }).register(new CloudProviderRegistry()),
    argv,
    defaultCloudProvider: 'vsphere',
    stdout: sink,
    stderr: sink,
    handleSignals: false,
    ...extensions.settings,
  });
  return { code, stderr, nodeLabels: extensions.nodeLabels() };
}

describe('every upstream vsphere-cloud-controller-manager flag is accepted by our bin', () => {
  it('lists each upstream flag once', () => {
    const names = ALL.map(({ flag }) => flag);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(ALL)('--$flag=$value ($source) parses with the bin\'s flag set, implemented', ({ flag, value }) => {
    const result = parseCommandLine([`--${flag}=${value}`], { additionalFlags: vsphereControllerManagerExtensions().settings.additionalFlags });
    expect(result.kind).toBe('run');
    if (result.kind !== 'run') return;
    expect(result.flags.setFlags()).toContain(flag);
    expect(result.registry.definition(flag)?.ignored).toBeUndefined();
  });

  it('the bin keeps every core flag (the k8s.io/cloud-provider part of upstream\'s command)', () => {
    const result = parseCommandLine([], { additionalFlags: vsphereControllerManagerExtensions().settings.additionalFlags });
    if (result.kind !== 'run') throw new Error(result.kind);
    const core = CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS.flatMap((group) => Object.values(group.flags).map((definition) => definition.name));
    expect(core.length).toBeGreaterThan(80);
    expect(core.filter((name) => result.registry.definition(name) === undefined)).toEqual([]);
  });

  it('all of them together pass validation and reach the provider (startup stops at the missing kubeconfig)', async () => {
    const { code, stderr, nodeLabels } = await run([...ALL.map(({ flag, value }) => `--${flag}=${value}`), '--kubeconfig=/nonexistent/kubeconfig']);
    expect(code, stderr).toBe(1);
    expect(stderr).toContain('/nonexistent/kubeconfig');
    expect(stderr).not.toContain('flag');
    expect(nodeLabels).toEqual({ 'node.foo.bar': 'vsphere', 'foo.bar/mapi': '' });
  });
});
