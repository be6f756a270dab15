import { parseCommandLine, FlagError } from '@ccm/core/app';
import { describe, expect, it } from 'vitest';
import { nodeLabelsProblem, parseNodeLabels, VSPHERE_FLAGS } from './vsphere-flags.js';

function nodeLabels(argv: string[]): Record<string, string> {
  const commandLine = parseCommandLine(argv, { additionalFlags: [VSPHERE_FLAGS] });
  if (commandLine.kind !== 'run') throw new Error(`expected run, got ${commandLine.kind}`);
  return parseNodeLabels(commandLine.flags.valuesOf(VSPHERE_FLAGS).nodeLabels);
}

describe('--node-labels (upstream vSphere options.AddFlags, pflag mapStringString)', () => {
  it('accepts the upstream example: key=value pairs, an empty value allowed', () => {
    expect(nodeLabels(['--node-labels=node.foo.bar=vsphere,foo.bar/mapi='])).toEqual({ 'node.foo.bar': 'vsphere', 'foo.bar/mapi': '' });
  });

  it('is repeatable; later pairs win; a value may contain "="', () => {
    expect(nodeLabels(['--node-labels', 'a=1,b=x=y', '--node-labels=a=2'])).toEqual({ a: '2', b: 'x=y' });
  });

  it('defaults to no labels', () => {
    expect(nodeLabels([])).toEqual({});
  });

  it('rejects an entry without "=" at startup, naming the flag', () => {
    expect(() => parseCommandLine(['--node-labels=a=1,oops'], { additionalFlags: [VSPHERE_FLAGS] })).toThrow(FlagError);
    expect(() => parseCommandLine(['--node-labels=a=1,oops'], { additionalFlags: [VSPHERE_FLAGS] })).toThrow(/node-labels.*"oops" must be formatted as key=value/);
    expect(nodeLabelsProblem(['a=1'])).toBeUndefined();
  });
});
