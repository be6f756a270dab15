/**
 * @ccm/cloud-provider-sandbox/conformance: this provider's conformance driver, for the shared suite
 * in @ccm/e2e (`e2e/src/conformance/sandbox.conformance.test.ts`) and the benchmark.
 */
export * from './sandbox-driver.js';
