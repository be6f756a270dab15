/**
 * @ccm/cloud-provider-openstack/conformance: this provider's conformance driver, for the shared
 * suite in @ccm/e2e (`e2e/src/conformance/openstack.conformance.test.ts`).
 */
export * from './openstack-driver.js';

/** The provider's fixed cloud API budget, for the chaos scenario's call-rate check. */
export { OPENSTACK_API_BUDGET_DEFAULTS } from '@ccm/cloud-provider-openstack';
