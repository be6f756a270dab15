import { silentLogger } from '@ccm/core/logging';
import { describe, expect, it } from 'vitest';
import { makeService, type ServiceOptions } from '../../../test/helpers.js';
import { InvalidAnnotationError } from '@ccm/core/service-input';
import { UnsupportedServiceError } from '../../errors.js';
import { buildLoadBalancerSpec, isInternal, loadBalancerKind } from './build-load-balancer-spec.js';
import { DEFAULT_LOAD_BALANCER_SETTINGS, type ClassicLoadBalancerSpec, type LoadBalancerSettings, type NetworkLoadBalancerSpec } from './load-balancer-spec.js';

const P = 'service.beta.kubernetes.io/';

function classic(options: ServiceOptions = {}, settings: Partial<LoadBalancerSettings> = {}): ClassicLoadBalancerSpec {
  const spec = buildLoadBalancerSpec(makeService(options), { ...DEFAULT_LOAD_BALANCER_SETTINGS, ...settings }, silentLogger);
  if (spec.kind !== 'classic') throw new Error('expected classic');
  return spec;
}

function network(options: ServiceOptions = {}, settings: Partial<LoadBalancerSettings> = {}): NetworkLoadBalancerSpec {
  const spec = buildLoadBalancerSpec(
    makeService({ ...options, annotations: { [`${P}aws-load-balancer-type`]: 'nlb', ...options.annotations } }),
    { ...DEFAULT_LOAD_BALANCER_SETTINGS, ...settings },
    silentLogger,
  );
  if (spec.kind !== 'network') throw new Error('expected network');
  return spec;
}

function invalid(build: () => unknown): InvalidAnnotationError {
  try {
    build();
  } catch (error) {
    if (error instanceof InvalidAnnotationError) return error;
    throw error;
  }
  throw new Error('expected an InvalidAnnotationError');
}

describe('load balancer kind and scheme', () => {
  it.each([
    [undefined, 'classic'],
    ['', 'classic'],
    ['clb', 'classic'],
    ['nlb', 'network'],
    ['nlb-ip', 'elsewhere'],
    ['external', 'elsewhere'],
  ])('type %j -> %s', (type, kind) => {
    expect(loadBalancerKind(makeService({ annotations: type === undefined ? {} : { [`${P}aws-load-balancer-type`]: type } }))).toBe(kind);
  });

  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['true', true],
    ['0.0.0.0/0', true],
    ['False', true],
  ])('internal %j -> %s', (value, internal) => {
    expect(isInternal(value === undefined ? {} : { [`${P}aws-load-balancer-internal`]: value })).toBe(internal);
  });
});

describe('Service checks (before any cloud call)', () => {
  it.each([
    [{ sessionAffinity: 'ClientIP' }, 'unsupported load balancer affinity: ClientIP'],
    [{ ports: [] }, 'requested load balancer with no ports'],
    [{ ports: [{ port: 80, nodePort: 30080 }, { port: 53, nodePort: 30053, protocol: 'UDP' }] }, 'mixed protocol is not supported for LoadBalancer'],
    [{ ports: [{ port: 53, nodePort: 30053, protocol: 'UDP' }] }, 'Protocol UDP not supported by LoadBalancer'],
    [{ ports: [{ port: 80, nodePort: 30080, protocol: 'SCTP' }] }, 'Protocol SCTP not supported by LoadBalancer'],
    [{ loadBalancerIP: '1.2.3.4' }, 'LoadBalancerIP cannot be specified for AWS ELB'],
    [{ ports: [{ port: 80 }] }, /no Service port has a NodePort/],
    [{ loadBalancerSourceRanges: ['10.0.0.0/33'] }, /LoadBalancerSourceRanges/],
  ])('classic: %j', (options, message) => {
    expect(() => classic(options as ServiceOptions)).toThrow(UnsupportedServiceError);
    expect(() => classic(options as ServiceOptions)).toThrow(message);
  });

  it('allows UDP on NLB', () => {
    expect(network({ ports: [{ port: 53, nodePort: 30053, protocol: 'UDP' }] }).mappings[0]).toMatchObject({ frontendProtocol: 'UDP', trafficProtocol: 'UDP' });
  });

  it('skips ports without a node port', () => {
    expect(classic({ ports: [{ port: 80, nodePort: 30080 }, { port: 81 }] }).listeners).toHaveLength(1);
  });
});

describe('common annotations', () => {
  it('names the load balancer a + UID without dashes', () => {
    expect(classic().loadBalancerName).toBe('a1111111122223333444455555555555');
    expect(classic().loadBalancerName).toHaveLength(32);
  });

  it('parses subnets, security groups, additional tags and target node labels', () => {
    const spec = classic({
      annotations: {
        [`${P}aws-load-balancer-subnets`]: ' subnet-1, public-a ,,',
        [`${P}aws-load-balancer-security-groups`]: 'sg-1,sg-2',
        [`${P}aws-load-balancer-extra-security-groups`]: 'sg-3',
        [`${P}aws-load-balancer-additional-resource-tags`]: 'team=web, cost= , empty, k=v=w, =nokey',
        [`${P}aws-load-balancer-target-node-labels`]: 'role=edge,gpu',
      },
    });
    expect(spec.subnetNamesOrIds).toEqual(['subnet-1', 'public-a']);
    expect(spec.securityGroups).toEqual(['sg-1', 'sg-2']);
    expect(spec.extraSecurityGroups).toEqual(['sg-3']);
    expect(spec.additionalTags).toEqual({ team: 'web', cost: '', empty: '', k: 'v' });
    expect(spec.targetNodeLabels).toEqual({ role: 'edge', gpu: '' });
  });

  it('reads source ranges from the spec, else the annotation, else 0.0.0.0/0', () => {
    expect(classic().sourceRanges).toEqual(['0.0.0.0/0']);
    expect(classic({ annotations: { 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.7/8, 192.168.1.0/24' } }).sourceRanges).toEqual(['10.0.0.0/8', '192.168.1.0/24']);
    expect(classic({ loadBalancerSourceRanges: ['172.16.0.0/12'], annotations: { 'service.beta.kubernetes.io/load-balancer-source-ranges': '10.0.0.0/8' } }).sourceRanges).toEqual(['172.16.0.0/12']);
    expect(classic({ loadBalancerSourceRanges: ['2600:1f14::1/64'] }).sourceRanges).toEqual(['2600:1f14::/64']);
    expect(invalid(() => classic({ annotations: { 'service.beta.kubernetes.io/load-balancer-source-ranges': 'nope' } })).annotation).toBe('service.beta.kubernetes.io/load-balancer-source-ranges');
  });
});

describe('Classic ELB listeners', () => {
  const ports = [
    { name: 'http', port: 80, nodePort: 30080 },
    { name: 'https', port: 443, nodePort: 30443 },
  ];
  const cert = 'arn:aws:acm:us-west-2:123456789012:certificate/abc';

  it.each([
    ['no annotations: TCP/TCP', {}, [['tcp', 'tcp', undefined], ['tcp', 'tcp', undefined]]],
    ['backend http: HTTP/HTTP', { 'aws-load-balancer-backend-protocol': 'http' }, [['http', 'http', undefined], ['http', 'http', undefined]]],
    ['cert only: SSL/TCP on every port', { 'aws-load-balancer-ssl-cert': cert }, [['ssl', 'tcp', cert], ['ssl', 'tcp', cert]]],
    ['cert + ssl-ports by number', { 'aws-load-balancer-ssl-cert': cert, 'aws-load-balancer-ssl-ports': '443' }, [['tcp', 'tcp', undefined], ['ssl', 'tcp', cert]]],
    ['cert + ssl-ports by name', { 'aws-load-balancer-ssl-cert': cert, 'aws-load-balancer-ssl-ports': 'https' }, [['tcp', 'tcp', undefined], ['ssl', 'tcp', cert]]],
    ['cert + ssl-ports *', { 'aws-load-balancer-ssl-cert': cert, 'aws-load-balancer-ssl-ports': '*' }, [['ssl', 'tcp', cert], ['ssl', 'tcp', cert]]],
    ['cert + backend http: HTTPS/HTTP', { 'aws-load-balancer-ssl-cert': cert, 'aws-load-balancer-backend-protocol': 'http' }, [['https', 'http', cert], ['https', 'http', cert]]],
    ['cert + backend https: HTTPS/HTTPS', { 'aws-load-balancer-ssl-cert': cert, 'aws-load-balancer-backend-protocol': 'https' }, [['https', 'https', cert], ['https', 'https', cert]]],
    ['cert + backend ssl: SSL/SSL', { 'aws-load-balancer-ssl-cert': cert, 'aws-load-balancer-backend-protocol': 'ssl' }, [['ssl', 'ssl', cert], ['ssl', 'ssl', cert]]],
    ['cert + backend tcp: SSL/TCP', { 'aws-load-balancer-ssl-cert': cert, 'aws-load-balancer-backend-protocol': 'tcp' }, [['ssl', 'tcp', cert], ['ssl', 'tcp', cert]]],
    ['backend https without cert: TCP', { 'aws-load-balancer-backend-protocol': 'https' }, [['tcp', 'tcp', undefined], ['tcp', 'tcp', undefined]]],
  ])('%s', (_name, annotations, expected) => {
    const spec = classic({ ports, annotations: Object.fromEntries(Object.entries(annotations).map(([key, value]) => [`${P}${key}`, value])) });
    expect(spec.listeners.map((listener) => [listener.protocol, listener.instanceProtocol, listener.sslCertificateId])).toEqual(expected);
    expect(spec.listeners.map((listener) => [listener.loadBalancerPort, listener.instancePort])).toEqual([[80, 30080], [443, 30443]]);
  });

  it('rejects an unknown backend protocol with a certificate', () => {
    const error = invalid(() => classic({ annotations: { [`${P}aws-load-balancer-ssl-cert`]: cert, [`${P}aws-load-balancer-backend-protocol`]: 'grpc' } }));
    expect(error.annotation).toBe(`${P}aws-load-balancer-backend-protocol`);
    expect(error.value).toBe('grpc');
  });
});

describe('Classic ELB attributes, proxy protocol and SSL policy', () => {
  it('defaults like upstream', () => {
    expect(classic().attributes).toEqual({
      accessLog: { enabled: false },
      connectionDraining: { enabled: false },
      connectionSettings: { idleTimeout: 60 },
      crossZoneLoadBalancing: { enabled: false },
    });
    expect(classic().proxyProtocol).toBe(false);
    expect(classic().sslNegotiationPolicy).toBeUndefined();
  });

  it('reads every attribute annotation', () => {
    const spec = classic({
      annotations: {
        [`${P}aws-load-balancer-access-log-enabled`]: 'true',
        [`${P}aws-load-balancer-access-log-emit-interval`]: '5',
        [`${P}aws-load-balancer-access-log-s3-bucket-name`]: 'logs',
        [`${P}aws-load-balancer-access-log-s3-bucket-prefix`]: 'elb/',
        [`${P}aws-load-balancer-connection-draining-enabled`]: 'T',
        [`${P}aws-load-balancer-connection-draining-timeout`]: '30',
        [`${P}aws-load-balancer-connection-idle-timeout`]: '120',
        [`${P}aws-load-balancer-cross-zone-load-balancing-enabled`]: '1',
        [`${P}aws-load-balancer-proxy-protocol`]: '*',
        [`${P}aws-load-balancer-ssl-negotiation-policy`]: 'ELBSecurityPolicy-TLS-1-2-2017-01',
      },
    });
    expect(spec.attributes).toEqual({
      accessLog: { enabled: true, emitInterval: 5, s3BucketName: 'logs', s3BucketPrefix: 'elb/' },
      connectionDraining: { enabled: true, timeout: 30 },
      connectionSettings: { idleTimeout: 120 },
      crossZoneLoadBalancing: { enabled: true },
    });
    expect(spec.proxyProtocol).toBe(true);
    expect(spec.sslNegotiationPolicy).toBe('ELBSecurityPolicy-TLS-1-2-2017-01');
  });

  it.each([
    ['aws-load-balancer-access-log-enabled', 'yes'],
    ['aws-load-balancer-access-log-emit-interval', 'five'],
    ['aws-load-balancer-connection-draining-enabled', 'on'],
    ['aws-load-balancer-connection-draining-timeout', '1.5'],
    ['aws-load-balancer-connection-idle-timeout', '0'],
    ['aws-load-balancer-cross-zone-load-balancing-enabled', 'enabled'],
    ['aws-load-balancer-proxy-protocol', 'true'],
    ['aws-load-balancer-healthcheck-healthy-threshold', '1'],
    ['aws-load-balancer-healthcheck-unhealthy-threshold', 'x'],
    ['aws-load-balancer-healthcheck-timeout', '1'],
    ['aws-load-balancer-healthcheck-interval', '4'],
    ['aws-load-balancer-healthcheck-port', 'eighty'],
    ['aws-load-balancer-healthcheck-protocol', 'UDP'],
    ['aws-load-balancer-target-group-attributes', 'proxy_protocol_v2.enabled=true'],
  ])('rejects %s=%j naming the annotation and value', (name, value) => {
    const error = invalid(() => classic({ annotations: { [`${P}${name}`]: value } }));
    expect(error.annotation).toBe(`${P}${name}`);
    expect(error.value).toBe(value);
    expect(error.message).toContain(`${P}${name}`);
  });
});

describe('Classic ELB health check', () => {
  it.each([
    ['default: TCP on the first node port', {}, {}, 'TCP:30080'],
    ['backend https: SSL', { 'aws-load-balancer-backend-protocol': 'https' }, {}, 'SSL:30080'],
    ['backend ssl: SSL', { 'aws-load-balancer-backend-protocol': 'ssl' }, {}, 'SSL:30080'],
    ['ETP Local: HTTP on the health check node port', {}, { externalTrafficPolicy: 'Local', healthCheckNodePort: 32000 }, 'HTTP:32000/healthz'],
    ['ETP Local + traffic-port: first node port', { 'aws-load-balancer-healthcheck-port': 'traffic-port' }, { externalTrafficPolicy: 'Local', healthCheckNodePort: 32000 }, 'HTTP:30080/healthz'],
    ['protocol HTTP: default path /', { 'aws-load-balancer-healthcheck-protocol': 'http' }, {}, 'HTTP:30080/'],
    ['protocol HTTPS, port and path', { 'aws-load-balancer-healthcheck-protocol': 'HTTPS', 'aws-load-balancer-healthcheck-port': '8443', 'aws-load-balancer-healthcheck-path': '/ready' }, {}, 'HTTPS:8443/ready'],
    ['path ignored for TCP', { 'aws-load-balancer-healthcheck-path': '/ready' }, {}, 'TCP:30080'],
  ])('%s', (_name, annotations, options, target) => {
    const spec = classic({ ...options, annotations: Object.fromEntries(Object.entries(annotations).map(([key, value]) => [`${P}${key}`, value])) });
    expect(spec.healthCheck.target).toBe(target);
  });

  it('uses kube-proxy in Shared mode for Cluster services only', () => {
    const settings = { healthProbeMode: 'Shared' as const, sharedHealthProbePort: 10256, sharedHealthProbePath: '/healthz' };
    expect(classic({}, settings).healthCheck.target).toBe('HTTP:10256/healthz');
    expect(classic({ externalTrafficPolicy: 'Local', healthCheckNodePort: 32000 }, settings).healthCheck.target).toBe('HTTP:32000/healthz');
  });

  it('uses upstream defaults and annotations for thresholds', () => {
    expect(classic().healthCheck).toEqual({ target: 'TCP:30080', healthyThreshold: 2, unhealthyThreshold: 6, timeout: 5, interval: 10 });
    expect(
      classic({
        annotations: {
          [`${P}aws-load-balancer-healthcheck-healthy-threshold`]: '3',
          [`${P}aws-load-balancer-healthcheck-unhealthy-threshold`]: '4',
          [`${P}aws-load-balancer-healthcheck-timeout`]: '6',
          [`${P}aws-load-balancer-healthcheck-interval`]: '7',
        },
      }).healthCheck,
    ).toEqual({ target: 'TCP:30080', healthyThreshold: 3, unhealthyThreshold: 4, timeout: 6, interval: 7 });
  });
});

describe('NLB spec', () => {
  const cert = 'arn:aws:acm:us-west-2:123456789012:certificate/abc';

  it('maps ports with the default TCP health check', () => {
    expect(network().mappings).toEqual([
      {
        frontendPort: 80,
        frontendProtocol: 'TCP',
        trafficPort: 30080,
        trafficProtocol: 'TCP',
        healthCheck: { protocol: 'TCP', port: 'traffic-port', path: '/', interval: 30, timeout: 10, healthyThreshold: 3, unhealthyThreshold: 3 },
      },
    ]);
  });

  it('uses HTTP on the health check node port for ETP Local', () => {
    expect(network({ externalTrafficPolicy: 'Local', healthCheckNodePort: 32100 }).mappings[0]?.healthCheck).toEqual({
      protocol: 'HTTP',
      port: '32100',
      path: '/healthz',
      interval: 10,
      timeout: 10,
      healthyThreshold: 2,
      unhealthyThreshold: 2,
    });
  });

  it('uses the shared probe for Cluster services in Shared mode', () => {
    expect(network({}, { healthProbeMode: 'Shared', sharedHealthProbePort: 10256, sharedHealthProbePath: '/healthz' }).mappings[0]?.healthCheck).toMatchObject({
      protocol: 'HTTP',
      port: '10256',
      path: '/healthz',
    });
  });

  it('Shared mode overrides the protocol, port and path annotations of a Cluster service, as upstream buildNLBHealthCheckConfiguration', () => {
    const settings = { healthProbeMode: 'Shared' as const, sharedHealthProbePort: 10256, sharedHealthProbePath: '/healthz' };
    const annotations = {
      [`${P}aws-load-balancer-healthcheck-protocol`]: 'tcp',
      [`${P}aws-load-balancer-healthcheck-port`]: '8443',
      [`${P}aws-load-balancer-healthcheck-path`]: '/ready',
      [`${P}aws-load-balancer-healthcheck-interval`]: '10',
    };
    expect(network({ annotations }, settings).mappings[0]?.healthCheck).toMatchObject({ protocol: 'HTTP', port: '10256', path: '/healthz', interval: 10 });
    expect(network({ annotations, externalTrafficPolicy: 'Local', healthCheckNodePort: 32100 }, settings).mappings[0]?.healthCheck).toMatchObject({
      protocol: 'TCP',
      port: '8443',
      interval: 10,
    });
  });

  it('applies health-check annotations', () => {
    const healthCheck = network({
      annotations: {
        [`${P}aws-load-balancer-healthcheck-protocol`]: 'https',
        [`${P}aws-load-balancer-healthcheck-port`]: '8443',
        [`${P}aws-load-balancer-healthcheck-path`]: '/ready',
        [`${P}aws-load-balancer-healthcheck-interval`]: '10',
        [`${P}aws-load-balancer-healthcheck-timeout`]: '6',
        [`${P}aws-load-balancer-healthcheck-healthy-threshold`]: '5',
        [`${P}aws-load-balancer-healthcheck-unhealthy-threshold`]: '4',
      },
    }).mappings[0]?.healthCheck;
    expect(healthCheck).toEqual({ protocol: 'HTTPS', port: '8443', path: '/ready', interval: 10, timeout: 6, healthyThreshold: 5, unhealthyThreshold: 4 });
  });

  it.each([
    ['aws-load-balancer-healthcheck-protocol', 'SSL'],
    ['aws-load-balancer-healthcheck-port', '70000'],
    ['aws-load-balancer-extra-security-groups', 'sg-1'],
    ['aws-load-balancer-target-group-attributes', 'deregistration_delay.timeout_seconds=10'],
    ['aws-load-balancer-target-group-attributes', 'proxy_protocol_v2.enabled=maybe'],
    ['aws-load-balancer-target-group-attributes', 'proxy_protocol_v2.enabled=true,proxy_protocol_v2.enabled=false'],
    ['aws-load-balancer-target-group-attributes', '=true'],
    ['aws-load-balancer-access-log-enabled', 'nope'],
    ['aws-load-balancer-cross-zone-load-balancing-enabled', 'nope'],
  ])('rejects %s=%j', (name, value) => {
    const error = invalid(() => network({ annotations: { [`${P}${name}`]: value } }));
    expect(error.annotation).toBe(`${P}${name}`);
  });

  it('refuses preserve_client_ip.enabled=false with UDP ports', () => {
    const annotations = { [`${P}aws-load-balancer-target-group-attributes`]: 'preserve_client_ip.enabled=false' };
    expect(invalid(() => network({ annotations, ports: [{ port: 53, nodePort: 30053, protocol: 'UDP' }] })).message).toMatch(/UDP/);
    expect(network({ annotations }).targetGroupAttributes).toEqual({ 'preserve_client_ip.enabled': 'false' });
  });

  it('parses target group attributes', () => {
    expect(network().targetGroupAttributes).toBeUndefined();
    expect(network({ annotations: { [`${P}aws-load-balancer-target-group-attributes`]: '' } }).targetGroupAttributes).toEqual({});
    expect(
      network({ annotations: { [`${P}aws-load-balancer-target-group-attributes`]: ' preserve_client_ip.enabled=True , proxy_protocol_v2.enabled=false' } }).targetGroupAttributes,
    ).toEqual({ 'preserve_client_ip.enabled': 'true', 'proxy_protocol_v2.enabled': 'false' });
  });

  it('makes TLS listeners for selected TCP ports and TLS targets with backend ssl', () => {
    const spec = network({
      ports: [
        { name: 'http', port: 80, nodePort: 30080 },
        { name: 'https', port: 443, nodePort: 30443 },
      ],
      annotations: {
        [`${P}aws-load-balancer-ssl-cert`]: cert,
        [`${P}aws-load-balancer-ssl-ports`]: 'https',
        [`${P}aws-load-balancer-ssl-negotiation-policy`]: 'ELBSecurityPolicy-TLS13-1-2-2021-06',
        [`${P}aws-load-balancer-backend-protocol`]: 'ssl',
      },
    });
    expect(spec.mappings.map((mapping) => [mapping.frontendProtocol, mapping.trafficProtocol, mapping.sslCertificateArn, mapping.sslPolicy])).toEqual([
      ['TCP', 'TCP', undefined, undefined],
      ['TLS', 'TLS', cert, 'ELBSecurityPolicy-TLS13-1-2-2021-06'],
    ]);
  });

  it('never makes TLS listeners for UDP', () => {
    expect(network({ ports: [{ port: 53, nodePort: 30053, protocol: 'UDP' }], annotations: { [`${P}aws-load-balancer-ssl-cert`]: cert } }).mappings[0]?.frontendProtocol).toBe('UDP');
  });

  it('builds attributes: cross-zone and access logs (bucket only when enabled)', () => {
    expect(network().attributes).toEqual({ 'load_balancing.cross_zone.enabled': 'false', 'access_logs.s3.enabled': 'false' });
    expect(
      network({
        annotations: {
          [`${P}aws-load-balancer-cross-zone-load-balancing-enabled`]: 'true',
          [`${P}aws-load-balancer-access-log-enabled`]: 'true',
          [`${P}aws-load-balancer-access-log-s3-bucket-name`]: 'logs',
          [`${P}aws-load-balancer-access-log-s3-bucket-prefix`]: 'nlb',
        },
      }).attributes,
    ).toEqual({ 'load_balancing.cross_zone.enabled': 'true', 'access_logs.s3.enabled': 'true', 'access_logs.s3.bucket': 'logs', 'access_logs.s3.prefix': 'nlb' });
  });

  it('reads EIP allocations and private IPv4 addresses', () => {
    const spec = network({ annotations: { [`${P}aws-load-balancer-eip-allocations`]: 'eipalloc-1, eipalloc-2', [`${P}aws-load-balancer-private-ipv4-addresses`]: '10.0.1.10,10.0.2.10' } });
    expect(spec.eipAllocations).toEqual(['eipalloc-1', 'eipalloc-2']);
    expect(spec.privateIpv4Addresses).toEqual(['10.0.1.10', '10.0.2.10']);
    expect(network().eipAllocations).toBeUndefined();
  });

  it('rejects private addresses that are not IPv4', () => {
    expect(invalid(() => network({ annotations: { [`${P}aws-load-balancer-private-ipv4-addresses`]: '10.0.1.10,fe80::1' } })).annotation).toBe(`${P}aws-load-balancer-private-ipv4-addresses`);
  });

  it('honours security groups only in Managed mode', () => {
    const annotations = { [`${P}aws-load-balancer-security-groups`]: 'sg-byo' };
    expect(network({ annotations }).securityGroups).toEqual([]);
    expect(network({ annotations }, { nlbSecurityGroupMode: 'Managed' }).securityGroups).toEqual(['sg-byo']);
  });
});
