import { describe, expect, it } from 'vitest';
import type { NetworkListener, TargetGroup } from '../../../ports/elbv2-port.js';
import type { NetworkPortMapping } from '../load-balancer-spec.js';
import { changedAttributes } from './network-attributes.js';
import { loadBalancerNameOfArn, networkStatus, subnetMappings } from './network-load-balancer.js';
import { networkSecurityGroupName, targetGroupName } from './network-names.js';
import { listenerNeedsChange, planNetworkListeners, planTargetGroupHealthCheck, planTargets, targetGroupHealthCheck } from './plan-network-listeners.js';

const healthCheck = { protocol: 'TCP', port: 'traffic-port', path: '/', interval: 30, timeout: 10, healthyThreshold: 3, unhealthyThreshold: 3 };
const mapping = (frontendPort: number, trafficPort: number, options: Partial<NetworkPortMapping> = {}): NetworkPortMapping => ({
  frontendPort,
  frontendProtocol: 'TCP',
  trafficPort,
  trafficProtocol: 'TCP',
  healthCheck: { ...healthCheck },
  ...options,
});
const service = { namespace: 'default', name: 'web', uid: '11111111-2222-3333-4444-555555555555' };

describe('NLB names', () => {
  it('hashes every input of the target group (stable identifier)', () => {
    const name = targetGroupName('c1', service, mapping(80, 30080));
    expect(name).toMatch(/^k8s-default-web-[0-9a-f]{10}$/);
    expect(targetGroupName('c1', service, mapping(80, 30080))).toBe(name);
    for (const changed of [
      targetGroupName('c2', service, mapping(80, 30080)),
      targetGroupName('c1', { ...service, namespace: 'other' }, mapping(80, 30080)),
      targetGroupName('c1', service, mapping(81, 30080)),
      targetGroupName('c1', service, mapping(80, 30081)),
      targetGroupName('c1', service, mapping(80, 30080, { trafficProtocol: 'TLS' })),
      targetGroupName('c1', service, mapping(80, 30080, { healthCheck: { ...healthCheck, protocol: 'HTTP' } })),
      targetGroupName('c1', service, mapping(80, 30080, { healthCheck: { ...healthCheck, interval: 10 } })),
    ]) {
      expect(changed).not.toBe(name);
    }
    expect(targetGroupName('c1', service, mapping(80, 30080, { healthCheck: { ...healthCheck, healthyThreshold: 5 } }))).toBe(name);
  });

  it('matches the upstream formula (sha1 of the concatenated inputs)', () => {
    // sha1("c1" + "default" + "web" + "80" + "30080" + "TCP" + "instance" + "TCP" + "30") computed independently.
    expect(targetGroupName('c1', service, mapping(80, 30080))).toBe('k8s-default-web-2e7f1b24e2');
  });

  it('sanitises and truncates namespace and name to 8 characters', () => {
    expect(targetGroupName('c1', { namespace: 'kube-system', name: 'my.long-service', uid: 'u' }, mapping(80, 30080))).toMatch(/^k8s-kubesyst-mylongse-[0-9a-f]{10}$/);
    expect(networkSecurityGroupName('kubernetes', service)).toMatch(/^k8s-default-web-[0-9a-f]{10}$/);
    expect(networkSecurityGroupName('other', service)).not.toBe(networkSecurityGroupName('kubernetes', service));
  });
});

describe('planNetworkListeners', () => {
  const nameOf = (candidate: NetworkPortMapping) => `tg-${candidate.frontendPort}-${candidate.trafficPort}-${candidate.trafficProtocol}`;
  const group = (name: string, arn = `arn:${name}`): TargetGroup => ({ arn, name, protocol: 'TCP', port: 0, healthCheck: {}, loadBalancerArns: ['arn:lb'] });
  const listener = (port: number, targetGroupArn: string, options: Partial<NetworkListener> = {}): NetworkListener => ({ arn: `arn:listener-${port}`, port, protocol: 'TCP', certificates: [], targetGroupArn, ...options });

  it('creates listeners for new ports', () => {
    expect(planNetworkListeners([mapping(80, 30080)], [], [], nameOf)).toEqual([{ kind: 'create', mapping: mapping(80, 30080), targetGroupName: 'tg-80-30080-TCP' }]);
  });

  it('keeps a listener whose target group still matches, and only syncs targets', () => {
    const actions = planNetworkListeners([mapping(80, 30080)], [listener(80, 'arn:tg-80-30080-TCP')], [group('tg-80-30080-TCP')], nameOf);
    expect(actions).toEqual([
      expect.objectContaining({ kind: 'update', reuseTargetGroup: group('tg-80-30080-TCP'), replacedTargetGroupArn: undefined, listenerChanged: false }),
    ]);
  });

  it('replaces the target group when its inputs change (node port, protocol, health check protocol/interval)', () => {
    const actions = planNetworkListeners([mapping(80, 30081)], [listener(80, 'arn:tg-80-30080-TCP')], [group('tg-80-30080-TCP')], nameOf);
    expect(actions).toEqual([
      expect.objectContaining({ kind: 'update', targetGroupName: 'tg-80-30081-TCP', reuseTargetGroup: undefined, replacedTargetGroupArn: 'arn:tg-80-30080-TCP', listenerChanged: true }),
    ]);
  });

  it('deletes listeners (and their target groups) first', () => {
    const actions = planNetworkListeners([mapping(443, 30443)], [listener(80, 'arn:tg-80-30080-TCP')], [group('tg-80-30080-TCP')], nameOf);
    expect(actions.map((action) => action.kind)).toEqual(['delete', 'create']);
    expect(actions[0]).toMatchObject({ kind: 'delete', deleteTargetGroupArn: 'arn:tg-80-30080-TCP' });
  });

  it('changes a listener protocol in place (TCP -> TLS on the same port)', () => {
    const tls = mapping(443, 30443, { frontendProtocol: 'TLS', sslCertificateArn: 'arn:cert', sslPolicy: '' });
    const actions = planNetworkListeners([tls], [listener(443, 'arn:tg-443-30443-TCP')], [group('tg-443-30443-TCP')], nameOf);
    expect(actions).toEqual([expect.objectContaining({ kind: 'update', listenerChanged: true, reuseTargetGroup: group('tg-443-30443-TCP') })]);
  });
});

describe('listenerNeedsChange', () => {
  const base: NetworkListener = { arn: 'l', port: 443, protocol: 'TLS', sslPolicy: 'ELBSecurityPolicy-2016-08', certificates: [{ certificateArn: 'arn:a' }] };
  it.each([
    ['same TLS listener, default policy kept', base, mapping(443, 1, { frontendProtocol: 'TLS', sslCertificateArn: 'arn:a', sslPolicy: '' }), false],
    ['certificate changed', base, mapping(443, 1, { frontendProtocol: 'TLS', sslCertificateArn: 'arn:b', sslPolicy: '' }), true],
    ['policy changed', base, mapping(443, 1, { frontendProtocol: 'TLS', sslCertificateArn: 'arn:a', sslPolicy: 'ELBSecurityPolicy-TLS13-1-2-2021-06' }), true],
    ['TLS -> TCP', base, mapping(443, 1), true],
    ['TCP listener with a leftover policy only (simulator quirk) is fine', { ...base, protocol: 'TCP', certificates: [] }, mapping(443, 1), false],
    ['TCP listener with a leftover certificate', { ...base, protocol: 'TCP' }, mapping(443, 1), true],
  ])('%s', (_name, current, desired, changed) => {
    expect(listenerNeedsChange(current, desired)).toBe(changed);
  });
});

describe('planTargets', () => {
  it('deregisters extras, registers missing, ignores targets already deregistering', () => {
    expect(
      planTargets(
        [{ id: 'i-1', port: 30080 }, { id: 'i-2', port: 30080 }, { id: 'i-4', port: 30080 }],
        [
          { id: 'i-1', port: 30080, state: 'healthy' },
          { id: 'i-3', port: 30080, state: 'healthy' },
          { id: 'i-4', port: 30080, state: 'draining', reason: 'Target.DeregistrationInProgress' },
        ],
      ),
    ).toEqual({ register: [{ id: 'i-2', port: 30080 }, { id: 'i-4', port: 30080 }], deregister: [{ id: 'i-3', port: 30080 }] });
  });
});

describe('target group health checks', () => {
  it('sends the path only for HTTP(S) and never the timeout', () => {
    expect(targetGroupHealthCheck(healthCheck)).toEqual({ protocol: 'TCP', port: 'traffic-port', intervalSeconds: 30, healthyThreshold: 3, unhealthyThreshold: 3 });
    expect(targetGroupHealthCheck({ ...healthCheck, protocol: 'HTTP', path: '/healthz' })).toMatchObject({ protocol: 'HTTP', path: '/healthz' });
  });

  it.each([
    ['in sync', { port: 'traffic-port', healthyThreshold: 3, unhealthyThreshold: 3 }, healthCheck, undefined],
    ['port changed', { port: '32000', healthyThreshold: 3, unhealthyThreshold: 3 }, healthCheck, { port: 'traffic-port' }],
    ['thresholds changed', { port: 'traffic-port', healthyThreshold: 2, unhealthyThreshold: 2 }, healthCheck, { healthyThreshold: 3, unhealthyThreshold: 3 }],
    ['path changed (HTTP)', { port: 'traffic-port', healthyThreshold: 3, unhealthyThreshold: 3, path: '/' }, { ...healthCheck, protocol: 'HTTP', path: '/ready' }, { path: '/ready' }],
  ])('%s', (_name, actual, desired, change) => {
    expect(planTargetGroupHealthCheck(desired, actual)).toEqual(change);
  });
});

describe('NLB helpers', () => {
  it('pairs subnets with EIPs and private IPs, which must match in count', () => {
    expect(subnetMappings(['s-1', 's-2'], { eipAllocations: ['e-1', 'e-2'], privateIpv4Addresses: undefined })).toEqual([
      { subnetId: 's-1', allocationId: 'e-1' },
      { subnetId: 's-2', allocationId: 'e-2' },
    ]);
    expect(() => subnetMappings(['s-1', 's-2'], { eipAllocations: ['e-1'], privateIpv4Addresses: undefined })).toThrow(/same number of EIP allocation IDs \(1\) and subnets \(2\)/);
    expect(() => subnetMappings(['s-1'], { eipAllocations: undefined, privateIpv4Addresses: ['10.0.0.1', '10.0.0.2'] })).toThrow(/private IPv4 addresses/);
  });

  it('reports a hostname only while active or provisioning', () => {
    const base = { arn: 'a', name: 'n', dnsName: 'n.elb.us-west-2.amazonaws.com', securityGroups: [], subnetIds: [] };
    expect(networkStatus({ ...base, state: 'active' })).toEqual({ ingress: [{ hostname: 'n.elb.us-west-2.amazonaws.com' }] });
    expect(networkStatus({ ...base, state: 'provisioning' }).ingress).toHaveLength(1);
    expect(networkStatus({ ...base, state: 'failed' })).toEqual({});
  });

  it('changes only the attributes that differ or are missing', () => {
    expect(changedAttributes({ a: 'true', b: 'false' }, { a: 'true', b: 'true', c: 'x' })).toEqual({ b: 'true', c: 'x' });
  });
});

describe('loadBalancerNameOfArn', () => {
  it.each([
    ['arn:aws:elasticloadbalancing:us-west-2:123456789012:loadbalancer/net/a1234/50dc6c495c0c9188', 'a1234'],
    ['arn:aws-cn:elasticloadbalancing:cn-north-1:123456789012:loadbalancer/app/web/0123', 'web'],
    ['arn:aws:elasticloadbalancing:us-west-2:123456789012:targetgroup/k8s-default-web-0123456789/73e2d6bc24d8a067', undefined],
    ['not-an-arn', undefined],
  ])('%s -> %s', (arn, name) => {
    expect(loadBalancerNameOfArn(arn)).toBe(name);
  });
});
