/**
 * @ccm/testing/chaos: a seeded fault-injecting proxy for chaos tests, between a CCM and its
 * cloud (any HTTP simulator) or kube-apiserver, with each cloud's own error and throttling answers.
 */
export * from './cloud-fault-flavors.js';
export * from './fault-injecting-proxy.js';
export * from './fault-plan.js';
export * from './kube-operation.js';
export type * from './proxied-request.js';
export { seededRandom } from '../sandbox/seeded-random.js';
