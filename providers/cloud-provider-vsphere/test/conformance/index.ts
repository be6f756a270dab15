/**
 * @ccm/cloud-provider-vsphere/conformance: this provider's conformance driver, for the shared suite
 * in @ccm/e2e (`e2e/src/conformance/vsphere.conformance.test.ts`) and the benchmark.
 */
export * from './vsphere-driver.js';
