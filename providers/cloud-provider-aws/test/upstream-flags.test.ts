/**
 * Every flag of the upstream aws-cloud-controller-manager release we claim (docs/testing.md:
 * kubernetes/cloud-provider-aws v1.34.0) is accepted by our bin. Upstream's command is
 * k8s.io/cloud-provider's `NewCloudControllerManagerCommand` plus the flag sets `main.go` adds;
 * the k8s.io/cloud-provider flags are listed and checked in core (`packages/core/src/app/
 * upstream-flags.test.ts`), so here: the AWS additions by source file, and that the bin's flag
 * registry still holds every core flag.
 */
import { CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS, parseCommandLine, runCloudControllerManager } from '@ccm/core/app';
import { CloudProviderRegistry } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import { registerAwsCloudProvider } from '../src/aws-cloud.js';
import { awsControllerManagerExtensions } from '../src/tagging/aws-controller-manager-extensions.js';

/** Flags upstream's `cmd/aws-cloud-controller-manager/main.go` adds to the core command, with a value upstream accepts. */
const UPSTREAM_AWS_FLAGS: Record<string, ReadonlyArray<readonly [flag: string, value: string]>> = {
  // pkg/controllers/options/tagging_controller.go TaggingControllerOptions.AddFlags
  // (main.go: taggingControllerWrapper.Options.AddFlags(fss.FlagSet("tagging controller")))
  'pkg/controllers/options/tagging_controller.go': [
    ['tags', 'team=blue,env='],
    ['resources', 'instance'],
    ['tagging-controller-rate-limit', '2.5'],
    ['tagging-controller-burst-limit', '3'],
  ],
};

const ALL = Object.entries(UPSTREAM_AWS_FLAGS).flatMap(([source, flags]) => flags.map(([flag, value]) => ({ source, flag, value })));

async function run(argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const sink = { write: (text: string) => ((stderr += text), true) };
  const code = await runCloudControllerManager({
    commandName: 'aws-cloud-controller-manager',
    registry: registerAwsCloudProvider(new CloudProviderRegistry()),
    argv,
    defaultCloudProvider: 'aws',
    stdout: sink,
    stderr: sink,
    handleSignals: false,
    ...awsControllerManagerExtensions(),
  });
  return { code, stderr };
}

describe('every upstream aws-cloud-controller-manager flag is accepted by our bin', () => {
  it('lists each upstream flag once', () => {
    const names = ALL.map(({ flag }) => flag);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(ALL)('--$flag=$value ($source) parses with the bin\'s flag set, implemented', ({ flag, value }) => {
    const result = parseCommandLine([`--${flag}=${value}`], { additionalFlags: awsControllerManagerExtensions().additionalFlags });
    expect(result.kind).toBe('run');
    if (result.kind !== 'run') return;
    expect(result.flags.setFlags()).toContain(flag);
    expect(result.registry.definition(flag)?.ignored).toBeUndefined();
  });

  it('the bin keeps every core flag (the k8s.io/cloud-provider part of upstream\'s command)', () => {
    const result = parseCommandLine([], { additionalFlags: awsControllerManagerExtensions().additionalFlags });
    if (result.kind !== 'run') throw new Error(result.kind);
    const core = CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS.flatMap((group) => Object.values(group.flags).map((definition) => definition.name));
    expect(core.length).toBeGreaterThan(80);
    expect(core.filter((name) => result.registry.definition(name) === undefined)).toEqual([]);
  });

  it('all of them together with --controllers=*,tagging pass validation (startup stops at the missing kubeconfig)', async () => {
    const { code, stderr } = await run(['--controllers=*,tagging', ...ALL.map(({ flag, value }) => `--${flag}=${value}`), '--kubeconfig=/nonexistent/kubeconfig']);
    expect(code, stderr).toBe(1);
    expect(stderr).toContain('/nonexistent/kubeconfig');
    expect(stderr).not.toContain('flag');
  });
});
