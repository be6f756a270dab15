// The conformance suite against the govmomi vCenter simulator (the Go module e2e/vcsim, govmomi
// pinned in its go.mod). vSphere offers no load balancers or routes (upstream needs NSX-T), so
// only the node, serving and leader scenarios run. Fails under CI=true when Go is missing or older
// than e2e/vcsim/go.mod needs.
import { vsphereDriver } from '@ccm/cloud-provider-vsphere/conformance';
import { describeConformance } from './conformance-suite.js';

await describeConformance(vsphereDriver);
