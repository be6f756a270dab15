import { describe, expect, it } from 'vitest';
import { justifiedUnusedRules, UNUSED_RULES_HEADING } from './rbac-justifications.js';

describe('justifiedUnusedRules', () => {
  it('reads the backticked rules with a reason from the section, and nothing outside it', () => {
    const markdown = [
      '## Other',
      '| `ClusterRole/x: get core/pods` | elsewhere |',
      UNUSED_RULES_HEADING,
      '| rule | why it stays |',
      '|---|---|',
      '| `ClusterRole/x: patch core/services` | no load balancers |',
      '| `ClusterRole/x: delete core/nodes` |  |',
      '## Next',
      '| `ClusterRole/x: list core/secrets` | after |',
    ].join('\n');
    expect([...justifiedUnusedRules(markdown)]).toEqual(['ClusterRole/x: patch core/services']);
  });

  it('docs/rbac.md has the section, with at least one justified rule', () => {
    expect(justifiedUnusedRules().size).toBeGreaterThan(0);
  });
});
