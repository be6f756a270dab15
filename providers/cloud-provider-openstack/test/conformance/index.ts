/**
 * @ccm/cloud-provider-openstack/conformance: this provider's conformance driver, for the shared
 * suite in @ccm/e2e (`e2e/src/conformance/openstack.conformance.test.ts`).
 */
export * from './openstack-driver.js';
