/** The tagging controller's flags on the AWS binary's command line. */
import { runCloudControllerManager } from '@ccm/core/app';
import { CloudProviderRegistry } from '@ccm/core/provider';
import { describe, expect, it } from 'vitest';
import { registerAwsCloudProvider } from '../src/aws-cloud.js';
import { awsControllerManagerExtensions } from '../src/tagging/aws-controller-manager-extensions.js';
import { parseTagPairs } from '../src/tagging/tagging-flags.js';

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

describe('tagging controller flags', () => {
  it.each([
    { argv: ['--tags=team'], flag: '--tags', reason: '"team" must be formatted as key=value' },
    { argv: ['--tags', 'a=b,=c'], flag: '--tags', reason: 'has an empty key' },
    { argv: ['--resources=network-interface'], flag: '--resources', reason: '"network-interface" is not a supported resource' },
    { argv: ['--tagging-controller-rate-limit=-1'], flag: '--tagging-controller-rate-limit', reason: 'should not be less than zero' },
    { argv: ['--tagging-controller-burst-limit=-2'], flag: '--tagging-controller-burst-limit', reason: 'should not be less than zero' },
  ])('$argv: exit 2 naming the flag', async ({ argv, flag, reason }) => {
    const { code, stderr } = await run(argv);
    expect(code).toBe(2);
    expect(stderr).toContain(`"${flag}" flag`);
    expect(stderr).toContain(reason);
  });

  it('accepts --controllers=*,tagging with its flags (startup then stops at the missing kubeconfig, exit 1)', async () => {
    const { code, stderr } = await run(['--controllers=*,tagging', '--tags=team=blue,env=', '--resources', 'instance', '--tagging-controller-rate-limit=2.5', '--tagging-controller-burst-limit=3', '--kubeconfig=/nonexistent/kubeconfig']);
    expect(code).toBe(1);
    expect(stderr).not.toContain('--controllers');
    expect(stderr).toContain('/nonexistent/kubeconfig');
  });

  it('still rejects a controller name neither core nor AWS has', async () => {
    const { code, stderr } = await run(['--controllers=*,tagger']);
    expect(code).toBe(2);
    expect(stderr).toContain('--controllers: "tagger" is not in the list of known controllers');
  });

  it('parses key=value pairs as pflag StringToString (empty values kept, a later key wins)', () => {
    expect(parseTagPairs(['a=1', 'b=', 'c=x=y', 'a=2'])).toEqual({ a: '2', b: '', c: 'x=y' });
  });
});
