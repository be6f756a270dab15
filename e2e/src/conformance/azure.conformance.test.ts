// The conformance suite against the in-repo Azure simulator (test-infrastructure/azure-simulator: Entra ID +
// ARM over HTTPS). The provider offers no LoadBalancer yet, so the node, route, serving and leader
// scenarios run. Fails under CI=true when the simulator or the CCM is not built.
import { azureDriver } from '@ccm/cloud-provider-azure/conformance';
import { describeConformance } from './conformance-suite.js';

await describeConformance(azureDriver);
