import type { V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { isPermanentInvalidInput } from '@ccm/core/provider';
import { buildLoadBalancerSpec } from './load-balancer-spec.js';
import { cutTo255, floatingIpDescription, listenerName, loadBalancerDescription, loadBalancerName, monitorName, poolName } from './load-balancer-names.js';
import { DEFAULT_LOAD_BALANCER_SETTINGS } from './load-balancer-settings.js';

function service(annotations: Record<string, string> = {}, spec: Partial<NonNullable<V1Service['spec']>> = {}): V1Service {
  return { metadata: { name: 'web', namespace: 'shop', annotations }, spec: { type: 'LoadBalancer', ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }], ...spec } };
}

describe('names (upstream formats)', () => {
  it('load balancer, listener, pool, monitor, descriptions', () => {
    const lb = loadBalancerName('prod', { namespace: 'shop', name: 'web' });
    expect(lb).toBe('kube_service_prod_shop_web');
    expect(listenerName(2, lb)).toBe('listener_2_kube_service_prod_shop_web');
    expect(poolName(0, lb)).toBe('pool_0_kube_service_prod_shop_web');
    expect(monitorName(1, lb)).toBe('monitor_1_kube_service_prod_shop_web');
    expect(loadBalancerDescription('prod', { namespace: 'shop', name: 'web' })).toBe('Kubernetes external service shop/web from cluster prod');
    expect(floatingIpDescription('prod', { namespace: 'shop', name: 'web' })).toBe('Floating IP for Kubernetes external service shop/web from cluster prod');
  });

  it('cuts at 255 characters', () => {
    expect(cutTo255('x'.repeat(300))).toHaveLength(255);
    expect(cutTo255('short')).toBe('short');
    expect(listenerName(0, 'y'.repeat(255))).toBe(`listener_0_${'y'.repeat(244)}`);
  });
});

describe('buildLoadBalancerSpec', () => {
  it('defaults: external, ROUND_ROBIN, no monitor, connection limit -1, every source, the config networks', () => {
    const spec = buildLoadBalancerSpec(service(), 'prod', { ...DEFAULT_LOAD_BALANCER_SETTINGS, subnetId: 's', floatingNetworkId: 'f' });
    expect(spec).toMatchObject({ name: 'kube_service_prod_shop_web', internal: false, vipSubnetId: 's', floatingNetworkId: 'f', keepFloatingIp: false, healthCheckNodePort: undefined });
    expect(spec.ports[0]).toMatchObject({ nodePort: 30080, healthMonitor: undefined, listener: { protocol: 'TCP', port: 80, connectionLimit: -1, allowedCidrs: [], insertHeaders: {} }, pool: { method: 'ROUND_ROBIN', protocol: 'TCP' } });
  });

  it('annotations override the config', () => {
    const spec = buildLoadBalancerSpec(
      service({
        'loadbalancer.openstack.org/subnet-id': 'sa',
        'loadbalancer.openstack.org/member-subnet-id': 'ma',
        'loadbalancer.openstack.org/floating-network-id': 'fa',
        'loadbalancer.openstack.org/flavor-id': 'flavor',
        'loadbalancer.openstack.org/availability-zone': 'az1',
        'loadbalancer.openstack.org/lb-method': 'source_ip',
        'loadbalancer.openstack.org/connection-limit': '500',
      }),
      'prod',
      { ...DEFAULT_LOAD_BALANCER_SETTINGS, subnetId: 's', memberSubnetId: 'm', floatingNetworkId: 'f', flavorId: 'x' },
    );
    expect(spec).toMatchObject({ vipSubnetId: 'sa', memberSubnetId: 'ma', floatingNetworkId: 'fa', flavorId: 'flavor', availabilityZone: 'az1' });
    expect(spec.ports[0]!.pool.method).toBe('SOURCE_IP');
    expect(spec.ports[0]!.listener.connectionLimit).toBe(500);
  });

  it('ETP Local: the healthCheckNodePort only when monitors are on', () => {
    const local = { externalTrafficPolicy: 'Local', healthCheckNodePort: 32100 };
    expect(buildLoadBalancerSpec(service({}, local), 'c', DEFAULT_LOAD_BALANCER_SETTINGS).healthCheckNodePort).toBeUndefined();
    const monitored = buildLoadBalancerSpec(service({ 'loadbalancer.openstack.org/enable-health-monitor': 'true' }, local), 'c', DEFAULT_LOAD_BALANCER_SETTINGS);
    expect(monitored.healthCheckNodePort).toBe(32100);
    expect(monitored.ports[0]!.healthMonitor).toMatchObject({ type: 'HTTP', urlPath: '/healthz', httpMethod: 'GET', expectedCodes: '200' });
  });

  it('the OVN provider has no HTTP monitors: ETP Local keeps a TCP monitor on the traffic port', () => {
    const spec = buildLoadBalancerSpec(service({}, { externalTrafficPolicy: 'Local', healthCheckNodePort: 32100 }), 'c', { ...DEFAULT_LOAD_BALANCER_SETTINGS, provider: 'ovn', createMonitor: true });
    expect(spec.healthCheckNodePort).toBeUndefined();
    expect(spec.ports[0]!.healthMonitor?.type).toBe('TCP');
  });

  it('the source-ranges annotation applies when the spec field is empty', () => {
    expect(buildLoadBalancerSpec(service({ 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8, 2001:db8::/32' }), 'c', DEFAULT_LOAD_BALANCER_SETTINGS).ports[0]!.listener.allowedCidrs).toEqual(['10.0.0.0/8', '2001:db8::/32']);
    expect(buildLoadBalancerSpec(service({ 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8' }, { loadBalancerSourceRanges: ['192.168.1.0/24'] }), 'c', DEFAULT_LOAD_BALANCER_SETTINGS).ports[0]!.listener.allowedCidrs).toEqual(['192.168.1.0/24']);
  });

  it.each([
    ['no ports', service({}, { ports: [] })],
    ['two ports on one listener', service({}, { ports: [{ port: 80, protocol: 'TCP' }, { port: 80, protocol: 'TCP', nodePort: 1 }] })],
    ['keep-floatingip not a boolean', service({ 'loadbalancer.openstack.org/keep-floatingip': '1' })],
    ['health-monitor-max-retries-down 0', service({ 'loadbalancer.openstack.org/enable-health-monitor': 'true', 'loadbalancer.openstack.org/health-monitor-max-retries-down': '0' })],
  ])('%s is permanently invalid', (_name, bad) => {
    let caught: unknown;
    try {
      buildLoadBalancerSpec(bad, 'c', DEFAULT_LOAD_BALANCER_SETTINGS);
    } catch (error) {
      caught = error;
    }
    expect(isPermanentInvalidInput(caught)).toBe(true);
  });
});
