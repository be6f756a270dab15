/**
 * @ccm/cloud-provider-azure/conformance: this provider's conformance driver, for the shared suite
 * in @ccm/e2e (`e2e/src/conformance/azure.conformance.test.ts`).
 */
export * from './azure-driver.js';

/** The provider's fixed cloud API budget, for the chaos scenario's call-rate check. */
export { AZURE_API_BUDGET_DEFAULTS } from '@ccm/cloud-provider-azure';
