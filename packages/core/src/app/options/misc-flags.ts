import { positiveDuration } from './flag-checks.js';
import { defineFlagGroup } from './flag-definition.js';

/** Upstream `misc` section. */
export const miscFlags = defineFlagGroup('misc', {
  master: {
    name: 'master',
    type: 'string',
    default: '',
    help: 'The address of the Kubernetes API server (overrides any value in kubeconfig).',
  },
  kubeconfig: {
    name: 'kubeconfig',
    type: 'string',
    default: '',
    help: 'Path to kubeconfig file with authorization and master location information (the master location can be overridden by the master flag).',
  },
  nodeStatusUpdateFrequencyMs: {
    name: 'node-status-update-frequency',
    type: 'duration',
    default: 5 * 60_000,
    check: positiveDuration,
    help: 'Specifies how often the controller updates nodes\' status.',
  },
});
