// The conformance suite against the govmomi vCenter simulator: node, serving and leader scenarios
// (vSphere offers no load balancers or routes). Needs Go and govmomi; fails under CI=true without them.
import { vsphereDriver } from '@ccm/cloud-provider-vsphere/conformance';
import { describeConformance } from './conformance-suite.js';

await describeConformance(vsphereDriver);
