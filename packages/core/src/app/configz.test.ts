/** The `/configz` document (upstream options ApplyTo into CloudControllerManagerConfiguration). */
import { describe, expect, it } from 'vitest';
import { buildConfigz, CONFIGZ_NAME } from './configz.js';
import { parseCommandLine } from './options/parse-command-line.js';

function nodeControllerSection(argv: string[]): unknown {
  const commandLine = parseCommandLine(argv);
  if (commandLine.kind !== 'run') throw new Error(`expected a run command line, got ${commandLine.kind}`);
  return (buildConfigz(commandLine.options)[CONFIGZ_NAME] as { NodeController: unknown }).NodeController;
}

describe('buildConfigz: NodeController (upstream NodeControllerOptions.ApplyTo)', () => {
  it('shows the effective status-update workers: 0 (the default) takes --concurrent-node-syncs', () => {
    expect(nodeControllerSection(['--cloud-provider=x', '--concurrent-node-syncs=3'])).toEqual({ ConcurrentNodeSyncs: 3, ConcurrentNodeStatusUpdates: 3 });
  });

  it('keeps an explicit --concurrent-node-status-updates', () => {
    expect(nodeControllerSection(['--cloud-provider=x', '--concurrent-node-syncs=3', '--concurrent-node-status-updates=7'])).toEqual({
      ConcurrentNodeSyncs: 3,
      ConcurrentNodeStatusUpdates: 7,
    });
  });
});
