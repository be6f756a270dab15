/**
 * openstack-client-ts: a typed OpenStack client. Keystone v3 sessions (password, application
 * credential, token; project/domain/trust scope; catalog by region and interface; re-auth),
 * Neutron, Octavia and Nova clients, typed errors from fault bodies, pagination, TLS options.
 */
export * from './openstack-error.js';
export * from './http/http-transport.js';
export * from './http/tls-options.js';
export * from './identity/keystone-types.js';
export * from './identity/keystone-request.js';
export * from './identity/keystone-session.js';
export * from './service-client.js';
export * from './network/neutron-types.js';
export * from './network/neutron-client.js';
export * from './load-balancer/octavia-types.js';
export * from './load-balancer/octavia-client.js';
export * from './compute/nova-client.js';
export * from './openstack-client.js';
