import { describe, expect, it } from 'vitest';
import { decideWhenUnavailable } from './conformance-suite.js';
import { planScenarios, SCENARIO_GROUPS } from './scenario-plan.js';

describe('planScenarios', () => {
  const names = (groups: Array<{ name: string }>): string[] => groups.map((group) => group.name);

  it('registers every group for a provider with all capabilities', () => {
    const plan = planScenarios({ loadBalancer: true, routes: true });
    expect(names(plan.included)).toEqual(names([...SCENARIO_GROUPS]));
    expect(plan.omitted).toEqual([]);
  });

  it('leaves out the groups whose capability is missing, with the reason', () => {
    const plan = planScenarios({ loadBalancer: true, routes: false });
    expect(names(plan.included)).not.toContain('routes');
    expect(plan.omitted.map(({ group, reason }) => [group.name, reason])).toEqual([
      ['routes', 'the provider does not offer routes (capabilities.routes is false)'],
    ]);
  });

  it('keeps the node and runtime groups for a provider without LB and routes', () => {
    const plan = planScenarios({ loadBalancer: false, routes: false });
    expect(names(plan.included)).toEqual(['node initialization', 'node lifecycle', 'serving', 'leader election', 'leader migration', 'swap from the upstream CCM']);
    expect(names(plan.omitted.map(({ group }) => group))).toEqual(['service load balancers', 'routes']);
  });
});

describe('decideWhenUnavailable', () => {
  const driver = { name: 'aws', installHint: 'pip install moto[server]' };

  it('runs when the driver reports no reason', () => {
    expect(decideWhenUnavailable(driver, undefined, { CI: 'true' })).toEqual({ kind: 'run' });
  });

  it('fails under CI=true with the reason and the install hint', () => {
    const decision = decideWhenUnavailable(driver, 'moto_server is not on PATH', { CI: 'true' });
    expect(decision).toEqual({
      kind: 'fail',
      message: 'the aws conformance suite cannot run under CI: moto_server is not on PATH. To install: pip install moto[server]',
    });
  });

  it('skips loudly elsewhere', () => {
    const decision = decideWhenUnavailable(driver, 'moto_server is not on PATH', {});
    expect(decision.kind).toBe('skip');
    if (decision.kind !== 'skip') return;
    expect(decision.warning).toContain('SKIPPING the aws conformance suite: moto_server is not on PATH');
    expect(decision.warning).toContain('To run it: pip install moto[server]');
  });
});
