// The conformance suite against the real Keystone and Neutron (Debian's OpenStack Zed packages on
// MariaDB, started by @ccm/openstack-services, 60-110 s) with its Nova stand-in and Octavia: the
// node, route, load balancer (with `manage-security-groups`: the node firewall scenario), serving,
// leader and swap scenarios. Fails under CI=true when the services' packages or the CCM build are
// missing.
import { openStackDriver } from '@ccm/cloud-provider-openstack/conformance';
import { describeConformance } from './conformance-suite.js';

await describeConformance(openStackDriver);
