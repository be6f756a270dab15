import type { ProviderDriver, ProviderDriverCapabilities } from './provider-driver.js';
import type { SuiteSettings } from './scenario-context.js';
import { registerLeaderElectionScenarios } from './scenarios/leader-election.js';
import { registerLeaderMigrationScenarios } from './scenarios/leader-migration.js';
import { registerLoadBalancerScenarios } from './scenarios/load-balancer.js';
import { registerNodeInitializationScenarios } from './scenarios/node-initialization.js';
import { registerNodeLifecycleScenarios } from './scenarios/node-lifecycle.js';
import { registerRouteScenarios } from './scenarios/routes.js';
import { registerServingScenarios } from './scenarios/serving.js';
import { registerSwapScenarios } from './scenarios/swap.js';

type Capability = keyof ProviderDriverCapabilities;

export interface ScenarioGroup {
  name: string;
  /** Capabilities the provider must offer for the group to make sense. */
  requires: Capability[];
  register(driver: ProviderDriver, suite: SuiteSettings): void;
}

export const SCENARIO_GROUPS: readonly ScenarioGroup[] = [
  { name: 'node initialization', requires: [], register: registerNodeInitializationScenarios },
  { name: 'node lifecycle', requires: [], register: registerNodeLifecycleScenarios },
  { name: 'service load balancers', requires: ['loadBalancer'], register: registerLoadBalancerScenarios },
  { name: 'routes', requires: ['routes'], register: registerRouteScenarios },
  { name: 'serving', requires: [], register: registerServingScenarios },
  { name: 'leader election', requires: [], register: registerLeaderElectionScenarios },
  { name: 'leader migration', requires: [], register: registerLeaderMigrationScenarios },
  { name: 'swap from the upstream CCM', requires: [], register: registerSwapScenarios },
];

export interface ScenarioPlan {
  included: ScenarioGroup[];
  /** Groups left out because the provider does not offer a capability, with the reason. */
  omitted: Array<{ group: ScenarioGroup; reason: string }>;
}

/** Splits the groups into those a provider with `capabilities` runs and those it cannot. */
export function planScenarios(capabilities: ProviderDriverCapabilities, groups: readonly ScenarioGroup[] = SCENARIO_GROUPS): ScenarioPlan {
  const plan: ScenarioPlan = { included: [], omitted: [] };
  for (const group of groups) {
    const lacking = group.requires.filter((capability) => capabilities[capability] !== true);
    if (lacking.length === 0) plan.included.push(group);
    else plan.omitted.push({ group, reason: `the provider does not offer ${lacking.join(', ')} (capabilities.${lacking.join(', capabilities.')} is false)` });
  }
  return plan;
}
