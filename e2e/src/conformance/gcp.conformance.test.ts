// The conformance suite against the GCE simulator (@ccm/gce-simulator; fails under CI=true when it or the CCM is not built).
import { gcpDriver } from '@ccm/cloud-provider-gcp/conformance';
import { describeConformance } from './conformance-suite.js';

await describeConformance(gcpDriver);
