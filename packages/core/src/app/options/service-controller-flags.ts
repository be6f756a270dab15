import { defineFlagGroup } from './flag-definition.js';

/** Upstream `service-lb-controller` section (options/servicecontroller.go). */
export const serviceControllerFlags = defineFlagGroup('service-lb-controller', {
  concurrentServiceSyncs: {
    name: 'concurrent-service-syncs',
    type: 'int',
    valueName: 'int32',
    minimum: -2_147_483_648,
    maximum: 2_147_483_647,
    default: 1,
    help: 'The number of services that are allowed to sync concurrently. Larger number = more responsive service management, but more CPU (and network) load',
  },
});
