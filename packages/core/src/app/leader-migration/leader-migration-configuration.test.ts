import { describe, expect, it } from 'vitest';
import {
  decodeLeaderMigrationConfiguration,
  defaultLeaderMigrationConfiguration,
  LeaderMigrationConfigError,
  readLeaderMigrationConfiguration,
  validateLeaderMigrationConfiguration,
} from './leader-migration-configuration.js';

const header = (version: string): string => `apiVersion: controllermanager.config.k8s.io/${version}\nkind: LeaderMigrationConfiguration\n`;

describe('LeaderMigrationConfiguration (upstream pkg/leadermigration/config)', () => {
  it('is upstream DefaultLeaderMigrationConfiguration by default', () => {
    expect(defaultLeaderMigrationConfiguration()).toEqual({
      leaderName: 'cloud-provider-extraction-migration',
      resourceLock: 'leases',
      controllerLeaders: [
        { name: 'route', component: '*' },
        { name: 'service', component: '*' },
        { name: 'cloud-node-lifecycle', component: '*' },
      ],
    });
    expect(validateLeaderMigrationConfiguration(defaultLeaderMigrationConfiguration())).toEqual([]);
  });

  it.each(['v1alpha1', 'v1beta1', 'v1'])('decodes %s, YAML or JSON, ignoring unknown fields', (version) => {
    const yaml = `${header(version)}leaderName: m\nresourceLock: leases\nextra: 1\ncontrollerLeaders:\n  - name: route\n    component: kube-controller-manager\n    other: x\n`;
    expect(decodeLeaderMigrationConfiguration(yaml, 'f')).toEqual({ leaderName: 'm', resourceLock: 'leases', controllerLeaders: [{ name: 'route', component: 'kube-controller-manager' }] });
    const json = JSON.stringify({ apiVersion: `controllermanager.config.k8s.io/${version}`, kind: 'LeaderMigrationConfiguration', leaderName: 'm', resourceLock: 'leases' });
    expect(decodeLeaderMigrationConfiguration(json, 'f')).toEqual({ leaderName: 'm', resourceLock: 'leases', controllerLeaders: [] });
  });

  it.each([
    ['kind: [', 'not valid YAML: line 1'],
    ['- a\n- b\n', 'expected a LeaderMigrationConfiguration object'],
    ['apiVersion: v1\nkind: LeaderMigrationConfiguration\n', 'field apiVersion: "v1" is not one of'],
    [`${header('v1')}controllerLeaders: route\n`, 'field controllerLeaders: expected a list'],
    [`${header('v1')}controllerLeaders:\n  - route\n`, 'field controllerLeaders[0]: expected an object with name and component'],
    [`${header('v1')}leaderName: 5\n`, 'field leaderName: expected a string, got number'],
  ])('rejects %j as malformed, naming the file and the field', (text, message) => {
    let caught: unknown;
    try {
      decodeLeaderMigrationConfiguration(text, '/etc/leadermigration.conf');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LeaderMigrationConfigError);
    expect((caught as LeaderMigrationConfigError).kind).toBe('malformed');
    expect((caught as Error).message).toContain('--leader-migration-config /etc/leadermigration.conf: ');
    expect((caught as Error).message).toContain(message);
    expect((caught as Error).message).not.toContain('\n');
  });

  it('validates as upstream ValidateLeaderMigrationConfiguration, and rejects endpoints locks client-go no longer has', () => {
    expect(validateLeaderMigrationConfiguration({ leaderName: '', resourceLock: 'configmaps', controllerLeaders: [{ name: '', component: '' }] })).toEqual([
      'leaderName: Required value: leaderName must be set for LeaderMigrationConfiguration',
      'resourceLock: Invalid value: "configmaps": resource Lock must be one of \'leases\' or \'endpoints\'',
      'controllerLeaders[0].component: Required value: component must be set',
      'controllerLeaders[0].name: Required value: name must be set',
    ]);
    expect(validateLeaderMigrationConfiguration({ leaderName: 'x', resourceLock: 'endpoints', controllerLeaders: [] })).toEqual([
      'resourceLock: Invalid value: "endpoints": endpoints locks are no longer supported, use \'leases\'',
    ]);
  });

  it('reports an unreadable file with kind unreadable and its cause', () => {
    const cause = new Error('EACCES: permission denied');
    let caught: unknown;
    try {
      readLeaderMigrationConfiguration('/etc/m.conf', () => {
        throw cause;
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ kind: 'unreadable', path: '/etc/m.conf', cause });
    expect((caught as Error).message).toBe('--leader-migration-config: unable to read leader migration configuration from "/etc/m.conf": EACCES: permission denied');
  });
});
