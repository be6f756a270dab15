/**
 * @ccm/cloud-provider-aws/conformance: this provider's conformance driver, for the shared suite
 * in @ccm/e2e (`e2e/src/conformance/aws.conformance.test.ts`) and the benchmark.
 */
export * from './aws-driver.js';

/** The provider's fixed cloud API budget, for the chaos scenario's call-rate check. */
export { AWS_API_BUDGET_DEFAULTS } from '@ccm/cloud-provider-aws';
