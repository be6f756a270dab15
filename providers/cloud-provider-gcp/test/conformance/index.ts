/** `@ccm/cloud-provider-gcp/conformance`: the GCE conformance driver for the shared suite. */
export { GcpDriver, gcpDriver, gceOperationOf, loadBalancerName, GCP_CCM_BIN, type GcpDriverOptions } from './gcp-driver.js';
