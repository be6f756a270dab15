import { positiveCount } from './flag-checks.js';
import { defineFlagGroup } from './flag-definition.js';

/** Upstream `cloud-node-controller` section (options/nodecontroller.go). */
export const nodeControllerFlags = defineFlagGroup('cloud-node-controller', {
  concurrentNodeSyncs: {
    name: 'concurrent-node-syncs',
    type: 'int',
    valueName: 'int32',
    minimum: -2_147_483_648,
    maximum: 2_147_483_647,
    default: 1,
    // Upstream declares this check (NodeControllerOptions.Validate) but never calls it, so a zero
    // silently starts no workers. We do check.
    check: positiveCount,
    help: 'Number of workers concurrently synchronizing nodes.',
  },
  concurrentNodeStatusUpdates: {
    name: 'concurrent-node-status-updates',
    type: 'int',
    valueName: 'int32',
    minimum: -2_147_483_648,
    maximum: 2_147_483_647,
    default: 0,
    check: (value) => (value >= 0 ? undefined : `must be 0 (use --concurrent-node-syncs) or more (got ${value})`),
    help: 'Number of workers concurrently updating node statuses. 0 means use the value of --concurrent-node-syncs.',
  },
});
