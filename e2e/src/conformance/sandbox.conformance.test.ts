// The sandbox conformance suite on the API server CCM_KUBE_API / CI select (the real
// kube-apiserver under CI, with the CCM under its own ServiceAccount and the manifests' RBAC).
import { sandboxDriver } from '../drivers/sandbox-driver.js';
import { describeConformance } from './conformance-suite.js';

await describeConformance(sandboxDriver);
