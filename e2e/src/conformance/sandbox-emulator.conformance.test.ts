// The sandbox conformance suite against @ccm/kube-emulator, whatever CCM_KUBE_API says: the
// emulator serves the demo and the benchmark, so it must keep passing the same scenarios as the
// real kube-apiserver (sandbox.conformance.test.ts runs them there).
import { sandboxDriver } from '@ccm/cloud-provider-sandbox/conformance';
import { describeConformance } from './conformance-suite.js';

await describeConformance(sandboxDriver, { kubeApi: 'emulator' });
