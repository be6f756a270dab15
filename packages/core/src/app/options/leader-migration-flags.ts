import { defineFlagGroup } from './flag-definition.js';

/** Upstream `leader-migration` section. Leader migration (moving controllers out of kube-controller-manager) is not implemented. */
export const leaderMigrationFlags = defineFlagGroup('leader-migration', {
  enableLeaderMigration: {
    name: 'enable-leader-migration',
    type: 'bool',
    default: false,
    help: 'Whether to enable controller leader migration.',
    ignored: 'leader migration from kube-controller-manager is not implemented; a warning is logged when it is enabled',
  },
  leaderMigrationConfig: {
    name: 'leader-migration-config',
    type: 'string',
    default: '',
    help: 'Path to the config file for controller leader migration, or empty to use the default config.',
    ignored: 'leader migration is not implemented',
  },
});
