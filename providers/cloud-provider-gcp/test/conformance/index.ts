/** `@ccm/cloud-provider-gcp/conformance`: the GCE conformance driver for the shared suite. */
export { GcpDriver, gcpDriver, gceOperationOf, loadBalancerName, GCP_CCM_BIN, type GcpDriverOptions } from './gcp-driver.js';

/** The provider's fixed cloud API budget, for the chaos scenario's call-rate check. */
export { GCE_API_BUDGET_DEFAULTS } from '@ccm/cloud-provider-gcp';
