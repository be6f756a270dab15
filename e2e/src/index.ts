/**
 * @ccm/e2e: the conformance suite (one suite, parametrised by a provider driver), its harness
 * and the provider drivers.
 */
export * from './harness/index.js';
export type * from './conformance/provider-driver.js';
export { describeConformance, decideWhenUnavailable, type UnavailableDecision } from './conformance/conformance-suite.js';
export { planScenarios, SCENARIO_GROUPS, type ScenarioGroup, type ScenarioPlan } from './conformance/scenario-plan.js';
