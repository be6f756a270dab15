// The conformance suite against moto_server (needs `moto_server` on PATH; fails under CI=true without it).
import { awsDriver } from '@ccm/cloud-provider-aws/conformance';
import { describeConformance } from './conformance-suite.js';

await describeConformance(awsDriver);
