import { defineFlagGroup } from './flag-definition.js';

/**
 * Upstream `leader-migration` section (k8s.io/controller-manager `pkg/leadermigration/options`):
 * hands controllers over from kube-controller-manager under a shared migration lease; see
 * `app/leader-migration/` and docs/migration.md.
 */
export const leaderMigrationFlags = defineFlagGroup('leader-migration', {
  enableLeaderMigration: {
    name: 'enable-leader-migration',
    type: 'bool',
    default: false,
    help: 'Whether to enable controller leader migration.',
  },
  leaderMigrationConfig: {
    name: 'leader-migration-config',
    type: 'string',
    default: '',
    help: 'Path to the config file for controller leader migration, or empty to use the value that reflects default configuration of the controller manager. The config file should be of type LeaderMigrationConfiguration, group controllermanager.config.k8s.io, version v1alpha1.',
  },
});
