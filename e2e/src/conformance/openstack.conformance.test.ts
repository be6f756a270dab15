// The conformance suite against the real Keystone and Neutron (Debian's OpenStack Zed packages on
// MariaDB, started by @ccm/openstack-services, 60-110 s) with its Nova stand-in. The provider's
// LoadBalancer is not registered in the driver yet, so the node, route, serving and leader
// scenarios run. Fails under CI=true when the services' packages or the CCM build are missing.
import { openStackDriver } from '@ccm/cloud-provider-openstack/conformance';
import { describeConformance } from './conformance-suite.js';

await describeConformance(openStackDriver);
