// The conformance suite against moto_server (AWS EC2, ELB, ELBv2). Needs the AWS CCM built and
// moto_server on PATH (`pip install "moto[server]"`); fails under CI=true when moto is missing.
import { awsMotoDriver } from '../../../providers/cloud-provider-aws/test/e2e/aws-driver.js';
import { describeConformance } from './conformance-suite.js';

await describeConformance(awsMotoDriver);
