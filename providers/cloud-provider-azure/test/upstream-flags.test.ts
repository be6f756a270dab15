/**
 * Every flag upstream's Azure cloud-controller-manager has beyond k8s.io/cloud-provider's common set
 * (kubernetes-sigs/cloud-provider-azure `cmd/cloud-controller-manager/app`, docs/parity.md "Azure")
 * is accepted by our bin with upstream's default; the implemented one takes effect, the others are
 * documented as ignored and logged once when set away from their default; bad values stop the
 * command with a message naming the flag. The k8s.io/cloud-provider flags are checked in core
 * (`packages/core/src/app/upstream-flags.test.ts`).
 */
import { runCloudControllerManager } from '@ccm/core/app';
import { CloudProviderRegistry } from '@ccm/core/provider';
import { describeUpstreamBinaryFlagsContract, noEffectLines, type UpstreamBinaryFlag } from '@ccm/testing/contract';
import { describe, expect, it } from 'vitest';
import { defineAzureCloudProvider } from '../src/azure-cloud.js';
import { azureControllerManagerExtensions } from '../src/cloud-controller-manager/azure-controller-manager-extensions.js';
import { AZURE_FLAG_GROUPS } from '../src/cloud-controller-manager/azure-flags.js';
import { renderAzureReference } from '../src/docs/render-azure-reference.js';
import { CONFIG, createHarness, node } from './helpers.js';

/** By source file (`options.go` at `04cf44f4`, `dynamic.go` at `075fc171`, `nodeipamcontroller.go` at `2c26bd06`, `pkg/log`; `controllermanager.go` read at the pin `004ef4f4`). */
const UPSTREAM_AZURE_FLAGS: Record<string, readonly UpstreamBinaryFlag[]> = {
  'app/options/dynamic.go (dynamic reloading)': [
    { flag: 'enable-dynamic-reloading', upstreamDefault: false, value: 'true', implemented: false },
    { flag: 'cloud-config-secret-name', upstreamDefault: 'cloud-provider-config', value: 'azure-cloud-provider', implemented: false },
    { flag: 'cloud-config-secret-namespace', upstreamDefault: 'kube-system', value: 'azure-system', implemented: false },
    { flag: 'cloud-config-key', upstreamDefault: 'cloud-config', value: 'azure.json', implemented: false },
  ],
  'app/options/nodeipamcontroller.go (node ipam controller)': [
    { flag: 'service-cluster-ip-range', upstreamDefault: '', value: '10.0.0.0/16', implemented: false },
    { flag: 'node-cidr-mask-size', upstreamDefault: 24, value: '26', implemented: false },
    { flag: 'node-cidr-mask-size-ipv4', upstreamDefault: 0, value: '24', implemented: false },
    { flag: 'node-cidr-mask-size-ipv6', upstreamDefault: 0, value: '64', implemented: false },
  ],
  'app/options/options.go (node filtering)': [
    { flag: 'node-filter-requirements', upstreamDefault: '', value: '', implemented: false, acceptsOnlyDefault: true },
    { flag: 'node-instance-not-found-grace-period-in-seconds', upstreamDefault: 0, value: '300', implemented: true },
  ],
  'pkg/log BindCLIFlags (controllermanager.go)': [{ flag: 'log-format', upstreamDefault: 'text', value: 'json', implemented: false }],
};

async function run(argv: string[]): Promise<{ code: number; stderr: string; notFoundGracePeriodSeconds: number }> {
  let stderr = '';
  const sink = { write: (text: string) => ((stderr += text), true) };
  const extensions = azureControllerManagerExtensions();
  const code = await runCloudControllerManager({
    commandName: 'azure-cloud-controller-manager',
    registry: defineAzureCloudProvider({ notFoundGracePeriodSeconds: extensions.notFoundGracePeriodSeconds }).register(new CloudProviderRegistry()),
    argv,
    defaultCloudProvider: 'azure',
    stdout: sink,
    stderr: sink,
    handleSignals: false,
    ...extensions.settings,
  });
  return { code, stderr, notFoundGracePeriodSeconds: extensions.notFoundGracePeriodSeconds() };
}

describeUpstreamBinaryFlagsContract({ binary: 'azure-cloud-controller-manager', flagsBySource: UPSTREAM_AZURE_FLAGS, groups: AZURE_FLAG_GROUPS, renderReference: renderAzureReference, run });

describe('bad values of the Azure flags stop the command with one message naming the flag', () => {
  it.each([
    ['--enable-dynamic-reloading=yes please', '--enable-dynamic-reloading'],
    ['--node-cidr-mask-size-ipv4=33', '--node-cidr-mask-size-ipv4'],
    ['--node-cidr-mask-size=-1', '--node-cidr-mask-size'],
    ['--service-cluster-ip-range=10.0.0.0/16,fd00::/108,10.1.0.0/16', 'can not contain more than two entries'],
    ['--service-cluster-ip-range=10.0.0.0/40', '--service-cluster-ip-range'],
    ['--node-instance-not-found-grace-period-in-seconds=5m', '--node-instance-not-found-grace-period-in-seconds'],
    ['--node-instance-not-found-grace-period-in-seconds=-5', '--node-instance-not-found-grace-period-in-seconds'],
    ['--node-filter-requirements=pool=system', 'cannot restrict itself to a subset of the nodes'],
    ['--log-format=xml', 'must be one of: text, json'],
  ])('%s: exit 2', async (argument, named) => {
    const { code, stderr } = await run([argument, '--kubeconfig=/nonexistent/kubeconfig']);
    expect(code, stderr).toBe(2);
    expect(stderr).toContain(named);
    expect(stderr.split('\n').filter((line) => line.startsWith('error: '))).toHaveLength(1);
  });
});

describe('--node-instance-not-found-grace-period-in-seconds', () => {
  it('reaches the provider from the command line, and is not logged as having no effect', async () => {
    const { code, stderr, notFoundGracePeriodSeconds } = await run(['--node-instance-not-found-grace-period-in-seconds=300', '--kubeconfig=/nonexistent/kubeconfig']);
    expect(code, stderr).toBe(1);
    expect(notFoundGracePeriodSeconds).toBe(300);
    expect(noEffectLines(stderr, 'node-instance-not-found-grace-period-in-seconds')).toEqual([]);
  });

  const created = (now: number, secondsAgo: number) => ({ ...node('node-new'), metadata: { name: 'node-new', creationTimestamp: new Date(now - secondsAgo * 1000) } });

  it('above 0, a node younger than the period exists although its VM is not found', async () => {
    const harness = await createHarness(CONFIG, { notFoundGracePeriodSeconds: () => 120 });
    expect(await harness.cloud.instancesV2().instanceExists(created(harness.clock.now, 60))).toBe(true);
    expect(await harness.cloud.instancesV2().instanceExists(created(harness.clock.now, 121))).toBe(false);
  });

  it('replaces the config key when above 0; 0 leaves the key in force', async () => {
    const flagWins = await createHarness({ ...CONFIG, nodeInstanceNotFoundGracePeriodInSeconds: 30 }, { notFoundGracePeriodSeconds: () => 120 });
    expect(await flagWins.cloud.instancesV2().instanceExists(created(flagWins.clock.now, 60))).toBe(true);
    const keyStays = await createHarness({ ...CONFIG, nodeInstanceNotFoundGracePeriodInSeconds: 30 }, { notFoundGracePeriodSeconds: () => 0 });
    expect(await keyStays.cloud.instancesV2().instanceExists(created(keyStays.clock.now, 20))).toBe(true);
    expect(await keyStays.cloud.instancesV2().instanceExists(created(keyStays.clock.now, 60))).toBe(false);
  });
});
