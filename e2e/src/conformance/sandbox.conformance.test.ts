// The conformance suite against the sandbox cloud (in this process; needs nothing installed).
import { sandboxDriver } from '@ccm/cloud-provider-sandbox/conformance';
import { describeConformance } from './conformance-suite.js';

await describeConformance(sandboxDriver);
