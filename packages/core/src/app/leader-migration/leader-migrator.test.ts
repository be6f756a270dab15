import { describe, expect, it } from 'vitest';
import { CONTROLLER_NAMES } from '../../names/controller-names.js';
import { defaultLeaderMigrationConfiguration } from './leader-migration-configuration.js';
import { createLeaderMigrator } from './leader-migrator.js';

describe('createLeaderMigrator (upstream NewLeaderMigrator / FilterFunc)', () => {
  it('puts the controllers of the default configuration under the migration lease, the others under the main lease', () => {
    const migrator = createLeaderMigrator(defaultLeaderMigrationConfiguration());
    expect(Object.fromEntries(CONTROLLER_NAMES.map((name) => [name, migrator.filter(name)]))).toEqual({
      'cloud-node-controller': 'non-migrated',
      'cloud-node-lifecycle-controller': 'migrated',
      'service-lb-controller': 'migrated',
      'node-route-controller': 'migrated',
    });
    expect(migrator.unknownNames([...CONTROLLER_NAMES])).toEqual([]);
  });

  it('leaves controllers of another component unowned; a later entry for the same controller wins', () => {
    const migrator = createLeaderMigrator({
      leaderName: 'm',
      resourceLock: 'leases',
      controllerLeaders: [
        { name: 'route', component: 'kube-controller-manager' },
        { name: 'service', component: 'kube-controller-manager' },
        { name: 'service-lb-controller', component: 'cloud-controller-manager' },
        { name: 'nodeipam', component: 'kube-controller-manager' },
      ],
    });
    expect(migrator.filter('node-route-controller')).toBe('unowned');
    expect(migrator.filter('service-lb-controller')).toBe('migrated');
    expect(migrator.filter('cloud-node-lifecycle-controller')).toBe('non-migrated');
    expect(migrator.hasMigrated(['node-route-controller'])).toBe(false);
    expect(migrator.hasMigrated([...CONTROLLER_NAMES])).toBe(true);
    expect(migrator.unknownNames([...CONTROLLER_NAMES])).toEqual(['nodeipam']);
  });

  it('matches the component of this process only (kube-controller-manager reads the same file)', () => {
    const configuration = { leaderName: 'm', resourceLock: 'leases', controllerLeaders: [{ name: 'route', component: 'cloud-controller-manager' }] };
    expect(createLeaderMigrator(configuration, 'kube-controller-manager').filter('node-route-controller')).toBe('unowned');
    expect(createLeaderMigrator(configuration).filter('node-route-controller')).toBe('migrated');
  });
});
