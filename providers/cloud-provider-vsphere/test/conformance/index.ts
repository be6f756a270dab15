/**
 * @ccm/cloud-provider-vsphere/conformance: this provider's conformance driver, for the shared suite
 * in @ccm/e2e (`e2e/src/conformance/vsphere.conformance.test.ts`) and the benchmark.
 */
export * from './vsphere-driver.js';

/** The provider's fixed cloud API budget, for the chaos scenario's call-rate check. */
export { VSPHERE_API_BUDGET_DEFAULTS } from '@ccm/cloud-provider-vsphere';
