// The conformance suite against the govmomi vCenter simulator (built from e2e/vcsim/main.go with
// Debian's golang-go and golang-github-vmware-govmomi-dev). vSphere offers no load balancers or
// routes (upstream needs NSX-T), so only the node, serving and leader scenarios run. Fails under
// CI=true when Go or govmomi is missing.
import { vsphereDriver } from '../../../providers/cloud-provider-vsphere/test/e2e/vsphere-driver.js';
import { describeConformance } from './conformance-suite.js';

await describeConformance(vsphereDriver);
