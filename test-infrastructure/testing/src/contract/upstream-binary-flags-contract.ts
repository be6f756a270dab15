/**
 * The contract of a provider binary's own flags (issue 23 point 5): every flag the upstream binary
 * adds to k8s.io/cloud-provider's command is declared by the provider with upstream's default,
 * another accepted value parses, it is implemented or documented as ignored in the generated
 * reference, all of them together pass validation, and each ignored one given another value than
 * its default is logged exactly once at start-up. The provider's test adds its own checks (bad
 * values, what the implemented flags do).
 */
import { CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS, parseCommandLine, type FlagGroup } from '@ccm/core/app';
import { describe, expect, it } from 'vitest';

export interface UpstreamBinaryFlag {
  flag: string;
  /** Upstream's default, as the provider's registry holds it. */
  upstreamDefault: boolean | number | string;
  /** A value upstream accepts; another than the default unless `acceptsOnlyDefault`. */
  value: string;
  implemented: boolean;
  /** Only the default is accepted (a deliberate difference the provider documents). */
  acceptsOnlyDefault?: boolean;
}

export interface UpstreamBinaryFlagsContract {
  /** The binary's name, for the test titles. */
  binary: string;
  /** Upstream flags by the source file that registers them. */
  flagsBySource: Record<string, readonly UpstreamBinaryFlag[]>;
  /** The provider's flag groups (what the bin passes as `additionalFlags`). */
  groups: readonly FlagGroup[];
  /** The provider's generated reference (docs/cloud-controller-manager.md). */
  renderReference: () => string;
  /** Runs the bin with `argv` (the test's sinks); resolves to its exit code and stderr. */
  run: (argv: string[]) => Promise<{ code: number; stderr: string }>;
}

export const noEffectLines = (stderr: string, flag: string): string[] => stderr.split('\n').filter((line) => line.includes(`Flag --${flag} is accepted for compatibility but has no effect`));

export function describeUpstreamBinaryFlagsContract(contract: UpstreamBinaryFlagsContract): void {
  const all = Object.entries(contract.flagsBySource).flatMap(([source, flags]) => flags.map((flag) => ({ source, ...flag })));
  const parse = (argv: string[]) => {
    const result = parseCommandLine(argv, { additionalFlags: contract.groups });
    if (result.kind !== 'run') throw new Error(`expected run, got ${result.kind}`);
    return result;
  };

  describe(`every upstream ${contract.binary} flag is accepted by our bin`, () => {
    it('lists each upstream flag once, and the bin declares no other', () => {
      const names = all.map(({ flag }) => flag);
      expect(new Set(names).size).toBe(names.length);
      const declared = contract.groups.flatMap((group) => Object.values(group.flags).map((definition) => definition.name));
      expect([...declared].sort()).toEqual([...names].sort());
    });

    it.each(all)('--$flag ($source): upstream default, another accepted value parses, status as declared', ({ flag, upstreamDefault, value, implemented, acceptsOnlyDefault }) => {
      expect(parse([]).flags.value(flag)).toBe(upstreamDefault);
      const result = parse([`--${flag}=${value}`]);
      expect(result.flags.setFlags()).toContain(flag);
      expect(result.flags.differsFromDefault(flag)).toBe(acceptsOnlyDefault !== true);
      expect(result.registry.definition(flag)?.ignored === undefined).toBe(implemented);
    });

    it.each(all)('--$flag has a row in the generated reference with its status', ({ flag, implemented }) => {
      const row = contract
        .renderReference()
        .split('\n')
        .find((line) => line.startsWith(`| \`--${flag}\` |`));
      expect(row, `docs/cloud-controller-manager.md lists --${flag}`).toBeDefined();
      if (implemented) expect(row).toContain('| supported |');
      else expect(row).toContain('| ignored: ');
    });

    it("the bin keeps every core flag (the k8s.io/cloud-provider part of upstream's command)", () => {
      const result = parse([]);
      const core = CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS.flatMap((group) => Object.values(group.flags).map((definition) => definition.name));
      expect(core.filter((name) => result.registry.definition(name) === undefined)).toEqual([]);
    });

    it('all of them together pass validation (start-up stops at the missing kubeconfig); each ignored one set away from its default is logged once', async () => {
      const { code, stderr } = await contract.run([...all.map(({ flag, value }) => `--${flag}=${value}`), '--kubeconfig=/nonexistent/kubeconfig']);
      expect(code, stderr).toBe(1);
      expect(stderr).toContain('/nonexistent/kubeconfig');
      for (const { flag, implemented, acceptsOnlyDefault } of all) expect(noEffectLines(stderr, flag), `--${flag}`).toHaveLength(implemented || acceptsOnlyDefault === true ? 0 : 1);
    });

    it('an ignored flag given its default value is not logged', async () => {
      const ignored = all.filter(({ implemented }) => !implemented);
      const { code, stderr } = await contract.run([...ignored.map(({ flag, upstreamDefault }) => `--${flag}=${String(upstreamDefault)}`), '--kubeconfig=/nonexistent/kubeconfig']);
      expect(code, stderr).toBe(1);
      for (const { flag } of ignored) expect(noEffectLines(stderr, flag), `--${flag}`).toEqual([]);
    });
  });
}
