/**
 * @ccm/openstack-services: real OpenStack services (Keystone, Neutron, Octavia) on loopback for
 * tests. `startOpenStackServices()` in process, or the `openstack-services` bin writing the
 * endpoint JSON. The vitest `describe` wrapper is in `@ccm/openstack-services/suite`.
 */
export * from './start-openstack-services.js';
export * from './openstack-services-availability.js';
export * from './openstack-services-for-tests.js';
export * from './openstack-cli.js';
export * from './octavia-worker-hold.js';
export { startNovaStandIn, type NovaStandIn, type NovaStandInOptions } from './nova/nova-stand-in.js';
