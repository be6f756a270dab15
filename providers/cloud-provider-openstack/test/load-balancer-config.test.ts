/** The annotation registry and the `[LoadBalancer]` settings read from cloud.conf. */
import { describe, expect, it } from 'vitest';
import { ALL_ANNOTATIONS, ANNOTATIONS } from '../src/annotations.js';
import { readOpenStackCloudConfig } from '../src/config/read-openstack-cloud-config.js';
import { loadBalancerSettingsFromConfig } from '../src/operations/load-balancer/load-balancer-settings-from-config.js';

const GLOBAL = '[Global]\nauth-url = http://keystone:5000/v3\nregion = RegionOne\nusername = u\npassword = p\ntenant-name = t\ndomain-name = Default\n';

function settingsOf(loadBalancer: string, environment: Record<string, string> = {}) {
  const { config } = readOpenStackCloudConfig(`${GLOBAL}[LoadBalancer]\n${loadBalancer}`, 'cloud.conf', { environment: {} });
  return loadBalancerSettingsFromConfig(config.loadBalancer, environment);
}

describe('annotation registry', () => {
  it('declares every upstream annotation once, each with a status, and a reason when ignored', () => {
    const keys = ALL_ANNOTATIONS.map((annotation) => annotation.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const upstream of [
      'service.beta.kubernetes.io/openstack-internal-load-balancer',
      'loadbalancer.openstack.org/floating-network-id',
      'loadbalancer.openstack.org/floating-subnet',
      'loadbalancer.openstack.org/floating-subnet-id',
      'loadbalancer.openstack.org/floating-subnet-tags',
      'loadbalancer.openstack.org/class',
      'loadbalancer.openstack.org/subnet-id',
      'loadbalancer.openstack.org/member-subnet-id',
      'loadbalancer.openstack.org/network-id',
      'loadbalancer.openstack.org/port-id',
      'loadbalancer.openstack.org/connection-limit',
      'loadbalancer.openstack.org/keep-floatingip',
      'loadbalancer.openstack.org/proxy-protocol',
      'loadbalancer.openstack.org/x-forwarded-for',
      'loadbalancer.openstack.org/lb-method',
      'loadbalancer.openstack.org/timeout-client-data',
      'loadbalancer.openstack.org/timeout-member-connect',
      'loadbalancer.openstack.org/timeout-member-data',
      'loadbalancer.openstack.org/timeout-tcp-inspect',
      'loadbalancer.openstack.org/enable-health-monitor',
      'loadbalancer.openstack.org/health-monitor-delay',
      'loadbalancer.openstack.org/health-monitor-timeout',
      'loadbalancer.openstack.org/health-monitor-max-retries',
      'loadbalancer.openstack.org/health-monitor-max-retries-down',
      'loadbalancer.openstack.org/flavor-id',
      'loadbalancer.openstack.org/availability-zone',
      'loadbalancer.openstack.org/default-tls-container-ref',
      'loadbalancer.openstack.org/load-balancer-id',
      'loadbalancer.openstack.org/load-balancer-address',
      'loadbalancer.openstack.org/hostname',
      'loadbalancer.openstack.org/node-selector',
    ]) {
      expect(keys).toContain(upstream);
    }
    for (const annotation of ALL_ANNOTATIONS) {
      expect(annotation.description.length).toBeGreaterThan(10);
      if (annotation.status === 'accepted-and-ignored') expect(annotation.reason ?? '').not.toBe('');
    }
    expect(ANNOTATIONS.internal.status).toBe('supported');
  });
});

describe('[LoadBalancer] settings', () => {
  it('upstream defaults', () => {
    const { settings, warnings } = settingsOf('');
    expect(settings).toMatchObject({ provider: 'amphora', method: 'ROUND_ROBIN', internal: false, createMonitor: false, monitorDelaySeconds: 5, monitorTimeoutSeconds: 3, monitorMaxRetries: 1, monitorMaxRetriesDown: 3, cascadeDelete: true, nodeSelector: {}, vipPortMode: 'octavia', serialApiCalls: false, ingressHostnameSuffix: 'nip.io' });
    expect(settings.floatingNetworkId).toBeUndefined();
    expect(warnings).toEqual([]);
  });

  it('every key it uses', () => {
    const { settings } = settingsOf(
      [
        'floating-network-id = fnet',
        'floating-subnet-id = fsub',
        'subnet-id = sub',
        'member-subnet-id = msub',
        'network-id = net',
        'lb-method = LEAST_CONNECTIONS',
        'lb-provider = octavia',
        'create-monitor = true',
        'monitor-delay = 1m',
        'monitor-timeout = 30s',
        'monitor-max-retries = 2',
        'monitor-max-retries-down = 4',
        'internal-lb = true',
        'node-selector = role=lb, edge',
        'cascade-delete = false',
        'flavor-id = fl',
        'availability-zone = az',
        'enable-ingress-hostname = true',
        'ingress-hostname-suffix = example.org',
        'provider-requires-serial-api-calls = true',
        'manage-security-groups = true',
      ].join('\n'),
      { OCCM_RESERVE_VIP_PORT: 'true' },
    );
    expect(settings).toEqual({
      provider: 'amphora',
      method: 'LEAST_CONNECTIONS',
      subnetId: 'sub',
      memberSubnetId: 'msub',
      networkId: 'net',
      floatingNetworkId: 'fnet',
      floatingSubnetId: 'fsub',
      internal: true,
      createMonitor: true,
      monitorDelaySeconds: 60,
      monitorTimeoutSeconds: 30,
      monitorMaxRetries: 2,
      monitorMaxRetriesDown: 4,
      nodeSelector: { role: 'lb', edge: '' },
      cascadeDelete: false,
      flavorId: 'fl',
      availabilityZone: 'az',
      enableIngressHostname: true,
      ingressHostnameSuffix: 'example.org',
      vipPortMode: 'reserved',
      serialApiCalls: true,
      manageSecurityGroups: true,
    });
  });

  it('warns about keys it does not implement and an unknown lb-method', () => {
    const { settings, warnings } = settingsOf('lb-method = FASTEST\nmanage-security-groups = true\nfloating-subnet = public*\n');
    expect(settings.method).toBe('ROUND_ROBIN');
    expect(warnings.join('\n')).toMatch(/lb-method "FASTEST" is unknown/);
    expect(settings.manageSecurityGroups).toBe(true);
    expect(warnings.join('\n')).not.toMatch(/manage-security-groups/);
    expect(warnings.join('\n')).toMatch(/floating-subnet and floating-subnet-tags are not implemented/);
  });

  it('a malformed node-selector is a configuration error naming the key', () => {
    expect(() => settingsOf('node-selector = a=b=c')).toThrow(/node-selector/);
  });
});
