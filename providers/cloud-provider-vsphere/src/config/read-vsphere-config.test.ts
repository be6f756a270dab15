import { CloudConfigError } from '@ccm/core/config';
import { describe, expect, it } from 'vitest';
import { detectConfigFormat, readVsphereConfig } from './read-vsphere-config.js';
import type { VcenterConfig } from './vsphere-config.js';

const FILE = '/etc/kubernetes/vsphere.conf';

/** The default secrets directory does not exist here unless a test says so. */
function read(text: string | undefined, environment: Record<string, string> = {}, existing: readonly string[] = []) {
  return readVsphereConfig(text, FILE, environment, { pathExists: (path) => existing.includes(path) });
}

function problems(text: string | undefined, environment: Record<string, string> = {}): string[] {
  try {
    read(text, environment);
  } catch (error) {
    if (error instanceof CloudConfigError) return error.message.split('\n');
    throw error;
  }
  throw new Error('expected a CloudConfigError');
}

/** The parts of a vCenter entry the tables compare. */
function summary(vcenter: VcenterConfig) {
  return {
    name: vcenter.name,
    server: vcenter.server,
    port: vcenter.port,
    insecure: vcenter.insecure,
    datacenters: vcenter.datacenters,
    roundTripCount: vcenter.roundTripCount,
    caFile: vcenter.caFile,
    thumbprint: vcenter.thumbprint,
    credentials: vcenter.credentials,
    ipFamilies: vcenter.ipFamilies,
  };
}

const YAML_FULL = `# vSphere cloud config
global:
  user: admin@vsphere.local
  password: "s3cret#1"
  port: 8443
  insecureFlag: yes
  datacenters: [dc-a]
  soapRoundtripCount: 5
  caFile: /etc/ca.pem
  ipFamily:
    - ipv4
vcenter:
  vc-east:
    server: 10.0.0.10
    datacenters:
      - dc-1
      - /east/dc-2
    port: 443
  vc-west:
    user: west@vsphere.local
    password: 0123
    insecureFlag: false
    thumbprint: AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01
labels:
  zone: k8s-zone
  region: k8s-region
nodes:
  internalNetworkSubnetCidr: 10.0.0.0/16, 192.168.0.0/24
  externalNetworkSubnetCidr: 172.16.0.0/12
  internalVmNetworkName: Internal Net
  externalVmNetworkName: External Net
  excludeInternalNetworkSubnetCidr: 10.244.0.0/16
  excludeExternalNetworkSubnetCidr: 10.0.0.0/8
`;

const INI_FULL = `; vSphere cloud config
[Global]
user = admin@vsphere.local
password = "s3cret#1"
port = 8443
insecure-flag = true
datacenters = dc-a
soap-roundtrip-count = 5
ca-file = /etc/ca.pem
ip-family = ipv4

[VirtualCenter "vc-east"]
server = 10.0.0.10
datacenters = dc-1, /east/dc-2
port = 443

[VirtualCenter "vc-west"]
user = west@vsphere.local
password = 0123
thumbprint = AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01

[Labels]
zone = k8s-zone
region = k8s-region

[Nodes]
internal-network-subnet-cidr = 10.0.0.0/16,192.168.0.0/24
external-network-subnet-cidr = 172.16.0.0/12
internal-vm-network-name = Internal Net
external-vm-network-name = External Net
exclude-internal-network-subnet-cidr = 10.244.0.0/16
exclude-external-network-subnet-cidr = 10.0.0.0/8
`;

describe('readVsphereConfig: the same config in YAML and INI', () => {
  it.each([
    ['yaml', YAML_FULL],
    ['ini', INI_FULL],
  ])('%s', (format, text) => {
    const { config, format: detected, warnings } = read(text);
    expect(detected).toBe(format);
    expect(warnings).toEqual([]);
    expect(config.vcenters.map(summary)).toEqual([
      {
        name: 'vc-east',
        server: '10.0.0.10',
        port: 443,
        insecure: true,
        datacenters: ['dc-1', '/east/dc-2'],
        roundTripCount: 5,
        caFile: '/etc/ca.pem',
        thumbprint: '',
        credentials: { kind: 'inline', username: 'admin@vsphere.local', password: 's3cret#1' },
        ipFamilies: ['ipv4'],
      },
      {
        name: 'vc-west',
        server: 'vc-west',
        port: 8443,
        insecure: true,
        datacenters: ['dc-a'],
        roundTripCount: 5,
        caFile: '/etc/ca.pem',
        thumbprint: 'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01',
        credentials: { kind: 'inline', username: 'west@vsphere.local', password: '0123' },
        ipFamilies: ['ipv4'],
      },
    ]);
    expect(config.labels).toEqual({ zone: 'k8s-zone', region: 'k8s-region' });
    expect(config.nodes.internalNetworkSubnets.map((cidr) => cidr.text)).toEqual(['10.0.0.0/16', '192.168.0.0/24']);
    expect(config.nodes.externalNetworkSubnets.map((cidr) => cidr.text)).toEqual(['172.16.0.0/12']);
    expect(config.nodes.excludeInternalNetworkSubnets.map((cidr) => cidr.text)).toEqual(['10.244.0.0/16']);
    expect(config.nodes.excludeExternalNetworkSubnets.map((cidr) => cidr.text)).toEqual(['10.0.0.0/8']);
    expect(config.nodes.internalVmNetworkName).toBe('Internal Net');
    expect(config.nodes.externalVmNetworkName).toBe('External Net');
    expect(config.vcenters[0]!.place).toEqual({ fileName: FILE, line: format === 'yaml' ? 13 : 12 });
  });
});

describe('readVsphereConfig: inheritance and credentials', () => {
  it.each([
    [
      'global.server builds a vCenter from the global values (defaults port 443, 3 round trips, ipv4)',
      'global:\n  server: vc.example.com\n  user: u\n  password: p\n',
      [{ name: 'vc.example.com', server: 'vc.example.com', port: 443, roundTripCount: 3, ipFamilies: ['ipv4'], credentials: { kind: 'inline', username: 'u', password: 'p' } }],
    ],
    [
      'an entry named like global.server wins over the global one',
      'global:\n  server: vc1\n  user: u\n  password: p\nvcenter:\n  vc1:\n    port: 1443\n',
      [{ name: 'vc1', port: 1443 }],
    ],
    [
      'a global Secret is used by entries without their own',
      'global:\n  secretName: creds\n  secretNamespace: kube-system\nvcenter:\n  vc1: {}\n  vc2:\n    secretName: vc2-creds\n    secretNamespace: other\n',
      [
        { name: 'vc1', credentials: { kind: 'secret', namespace: 'kube-system', name: 'creds' } },
        { name: 'vc2', credentials: { kind: 'secret', namespace: 'other', name: 'vc2-creds' } },
      ],
    ],
    [
      'a secrets directory replaces user/password',
      'global:\n  secretsDirectory: /etc/cloud/secrets\nvcenter:\n  vc1: {}\n',
      [{ name: 'vc1', credentials: { kind: 'directory', path: '/etc/cloud/secrets' } }],
    ],
    [
      'INI: a VirtualCenter section is named by the server, numbers stay strings in passwords',
      '[Global]\nuser = u\npassword = 007\n[VirtualCenter "10.1.1.1"]\n',
      [{ name: '10.1.1.1', server: '10.1.1.1', credentials: { kind: 'inline', username: 'u', password: '007' } }],
    ],
  ])('%s', (_title, text, expected) => {
    const { config } = read(text);
    expect(config.vcenters.map(summary)).toEqual(expected.map((entry) => expect.objectContaining(entry)));
  });

  describe('secretsDirectory as upstream', () => {
    const credentialsOf = (result: ReturnType<typeof read>) => result.config.vcenters.map((vcenter) => vcenter.credentials);

    it('defaults to /etc/cloud/secrets when that path exists', () => {
      expect(credentialsOf(read('vcenter:\n  vc1: {}\n', {}, ['/etc/cloud/secrets']))).toEqual([{ kind: 'directory', path: '/etc/cloud/secrets' }]);
      expect(problems('vcenter:\n  vc1: {}\n')).toEqual([
        `${FILE}:2: vCenter "vc1": user is not set (set it in the entry or globally, or use a Secret)`,
        `${FILE}:2: vCenter "vc1": password is not set (set it in the entry or globally, or use a Secret)`,
      ]);
    });

    it('a configured directory wins over the default', () => {
      expect(credentialsOf(read('global:\n  secretsDirectory: /run/creds\nvcenter:\n  vc1: {}\n', {}, ['/etc/cloud/secrets']))).toEqual([{ kind: 'directory', path: '/run/creds' }]);
    });

    it('a default directory does not replace user/password from the config (upstream logs in with them first)', () => {
      expect(credentialsOf(read('global:\n  user: u\n  password: p\nvcenter:\n  vc1: {}\n', {}, ['/etc/cloud/secrets']))).toEqual([{ kind: 'inline', username: 'u', password: 'p' }]);
    });

    it.each([
      ['a configured', 'global:\n  secretName: creds\n  secretNamespace: kube-system\n  secretsDirectory: /run/creds\nvcenter:\n  vc1: {}\n', '/run/creds', ''],
      ['the default', 'global:\n  secretName: creds\n  secretNamespace: kube-system\nvcenter:\n  vc1: {}\n', '/etc/cloud/secrets', ' (the default, which exists)'],
    ])('a global Secret plus %s directory uses the directory and warns, instead of failing', (_name, text, path, note) => {
      const result = read(text, {}, ['/etc/cloud/secrets']);
      expect(credentialsOf(result)).toEqual([{ kind: 'directory', path }]);
      expect(result.warnings.map((warning) => warning.message)).toEqual([`global Secret kube-system/creds is not used: the secrets directory ${path}${note} takes precedence, as upstream`]);
    });

    it('a vCenter Secret still wins over the directory', () => {
      const text = 'global:\n  secretsDirectory: /run/creds\nvcenter:\n  vc1:\n    secretName: own\n    secretNamespace: ns\n';
      expect(credentialsOf(read(text))).toEqual([{ kind: 'secret', namespace: 'ns', name: 'own' }]);
    });
  });

  it('reads everything from the environment when there is no file', () => {
    const { config, format } = read(undefined, {
      VSPHERE_VCENTER: 'vc.example.com',
      VSPHERE_VCENTER_PORT: '8443',
      VSPHERE_USER: 'env-user',
      VSPHERE_PASSWORD: 'env-pass',
      VSPHERE_DATACENTER: 'dc1,dc2',
      VSPHERE_INSECURE: 'true',
      VSPHERE_ROUNDTRIP_COUNT: '7',
      VSPHERE_LABEL_ZONE: 'zones',
      VSPHERE_LABEL_REGION: 'regions',
    });
    expect(format).toBe('none');
    expect(config.vcenters.map(summary)).toEqual([
      {
        name: 'vc.example.com',
        server: 'vc.example.com',
        port: 8443,
        insecure: true,
        datacenters: ['dc1', 'dc2'],
        roundTripCount: 7,
        caFile: '',
        thumbprint: '',
        credentials: { kind: 'inline', username: 'env-user', password: 'env-pass' },
        ipFamilies: ['ipv4'],
      },
    ]);
    expect(config.labels).toEqual({ zone: 'zones', region: 'regions' });
  });

  it('lets environment variables override the file and add vCenters', () => {
    const { config } = read('global:\n  user: file-user\n  password: file-pass\nvcenter:\n  vc1:\n    port: 443\n', {
      VSPHERE_USER: 'env-user',
      VSPHERE_VCENTER_EAST: 'vc-east',
      VCENTER_EAST_SERVER: 'east.example.com',
      VCENTER_EAST_PORT: '9443',
      VCENTER_EAST_USERNAME: 'east-user',
      VCENTER_EAST_DATACENTERS: 'dc-east',
      VSPHERE_VCENTER_PORT: '1443',
      VSPHERE_PASSWORD: '',
    });
    expect(config.vcenters.map(summary)).toEqual([
      expect.objectContaining({ name: 'vc1', port: 443, credentials: { kind: 'inline', username: 'env-user', password: 'file-pass' } }),
      expect.objectContaining({
        name: 'vc-east',
        server: 'east.example.com',
        port: 9443,
        datacenters: ['dc-east'],
        credentials: { kind: 'inline', username: 'east-user', password: 'file-pass' },
      }),
    ]);
  });

  it('accepts two IP families only with ENABLE_ALPHA_DUAL_STACK', () => {
    const text = 'vcenter:\n  vc1:\n    user: u\n    password: p\n    ipFamily: [ipv6, IPv4]\n';
    expect(problems(text)).toEqual([`${FILE}:5: vCenter "vc1": two IP families (dual stack) need the environment variable ENABLE_ALPHA_DUAL_STACK to be set`]);
    expect(read(text, { ENABLE_ALPHA_DUAL_STACK: 'true' }).config.vcenters[0]!.ipFamilies).toEqual(['ipv6', 'ipv4']);
    // Present at all counts as set, whatever the value (upstream os.LookupEnv).
    expect(read(text, { ENABLE_ALPHA_DUAL_STACK: '' }).config.vcenters[0]!.ipFamilies).toEqual(['ipv6', 'ipv4']);
    expect(read(text, { ENABLE_ALPHA_DUAL_STACK: 'false' }).config.vcenters[0]!.ipFamilies).toEqual(['ipv6', 'ipv4']);
  });
});

describe('readVsphereConfig: every problem with its place', () => {
  it('reports all YAML problems at once, in line order', () => {
    const text = [
      'global:', // 1
      '  port: "http"', // 2
      '  insecureFlag: maybe', // 3
      '  secretName: creds', // 4
      'vcenter:', // 5
      '  vc1:', // 6
      '    ipFamily: [ipv5]', // 7
      '    thumbprint: "nope"', // 8
      'nodes:', // 9
      '  internalNetworkSubnetCidr: 10.0.0.0/33', // 10
    ].join('\n');
    expect(problems(text)).toEqual([
      `${FILE}:2: global.port: must be a non-negative integer, not "http"`,
      `${FILE}:3: global.insecureFlag: must be true or false, not "maybe"`,
      `${FILE}:4: global secretName and secretNamespace must be set together`,
      `${FILE}:6: vCenter "vc1": user is not set (set it in the entry or globally, or use a Secret)`,
      `${FILE}:6: vCenter "vc1": password is not set (set it in the entry or globally, or use a Secret)`,
      `${FILE}:7: vCenter "vc1": ipFamily "ipv5" is not ipv4 or ipv6`,
      `${FILE}:8: vCenter "vc1": thumbprint "nope" is not a SHA-1 or SHA-256 fingerprint (hex, colons allowed)`,
      `${FILE}:10: nodes.internalNetworkSubnetCidr: "10.0.0.0/33" is not a CIDR`,
    ]);
  });

  it('reports YAML syntax errors and duplicate keys with their line', () => {
    expect(problems('global:\n  user: a\n  user: b\n')).toEqual([`${FILE}:3: YAML: Map keys must be unique`]);
    expect(problems('global:\n  user: [a\n')[0]).toMatch(new RegExp(`^${FILE}:\\d: YAML: `));
  });

  it('reports INI problems with their line', () => {
    const text = ['[Global]', 'port = https', 'insecure-flag = sometimes', '[VirtualCenter "vc1"]', 'user = u', '[Nodes]', 'exclude-external-network-subnet-cidr = 10.0.0.0/8,bogus'].join('\n');
    expect(problems(text)).toEqual([
      `${FILE}:2: section [Global], key "port": invalid integer "https"`,
      `${FILE}:3: section [Global], key "insecure-flag": invalid boolean "sometimes" (use true/false, yes/no, on/off or 1/0)`,
      `${FILE}:4: vCenter "vc1": password is not set (set it in the entry or globally, or use a Secret)`,
      `${FILE}:7: nodes.excludeExternalNetworkSubnetCidr: "bogus" is not a CIDR`,
    ]);
  });

  it('names the environment variable of a bad override', () => {
    expect(problems('global:\n  server: vc\n  user: u\n  password: p\n', { VSPHERE_ROUNDTRIP_COUNT: 'many', VSPHERE_INSECURE: 'yes please' })).toEqual([
      'environment variable VSPHERE_INSECURE: invalid boolean "yes please" (use true or false)',
      'environment variable VSPHERE_ROUNDTRIP_COUNT: invalid non-negative integer "many"',
    ]);
  });

  it('needs at least one vCenter', () => {
    expect(problems('labels:\n  zone: z\n')).toEqual([`${FILE}: no vCenter configured: add a vcenter section (or global.server, or VSPHERE_VCENTER)`]);
    expect(problems('[Labels]\nzone = z\n')).toEqual([`${FILE}: no vCenter configured: add a [VirtualCenter "<server>"] section (or server in [Global], or VSPHERE_VCENTER)`]);
    expect(problems(undefined)).toEqual([`${FILE}: no vCenter configured: add a vcenter section (or global.server, or VSPHERE_VCENTER)`]);
  });

  it('never echoes a password in a problem', () => {
    const message = problems('global:\n  password: [hunter2]\nvcenter:\n  vc1: {}\n').join('\n');
    expect(message).not.toContain('hunter2');
  });
});

describe('readVsphereConfig: warnings', () => {
  it('warns about unknown, ignored, deprecated and NSX-T keys without failing', () => {
    const text = ['global:', '  server: vc1', '  user: u', '  password: p', '  apiDisable: false', '  colour: blue', 'nsxt:', '  host: nsx.example.com', 'extra: 1'].join('\n');
    const { warnings, config } = read(text);
    expect(config.vcenters.map((vcenter) => vcenter.name)).toEqual(['vc1']);
    expect(warnings.map((warning) => `${warning.line}: ${warning.message}`)).toEqual([
      '2: global.server is deprecated: declare vCenters in the vcenter section / [VirtualCenter "<server>"] sections',
      '5: global.apiDisable is ignored: upstream gRPC node API, not part of this port',
      '6: unknown key "global.colour"; ignored',
      '7: section "nsxt" is not supported: NSX-T connection for load balancers and routes. Not implemented by this port: LoadBalancer and Routes are unsupported.',
      '9: unknown section "extra" (known: global, vcenter, labels, nodes); ignored',
    ]);
  });

  it('warns about INI NSX-T sections and unknown keys', () => {
    const { warnings } = read('[Global]\nserver = vc1\nuser = u\npassword = p\nfoo = bar\n[NSXT]\nhost = nsx\n');
    expect(warnings.map((warning) => `${warning.line}: ${warning.message}`)).toEqual([
      '2: key "server" in section [Global] is deprecated: declare vCenters in the vcenter section / [VirtualCenter "<server>"] sections',
      '5: unknown key "foo" in section [Global]',
      '6: section [NSXT] is not supported: NSX-T connection for load balancers and routes. Not implemented by this port: LoadBalancer and Routes are unsupported.',
    ]);
  });
});

describe('detectConfigFormat', () => {
  it.each([
    ['[Global]\nuser = a', 'ini'],
    ['# comment\n\n[VirtualCenter "10.0.0.1"]', 'ini'],
    ['; comment\n[Labels]', 'ini'],
    ['global:\n  user: a', 'yaml'],
    ['[1, 2]', 'yaml'],
    ['', 'none'],
    ['# only a comment', 'none'],
  ])('%j is %s', (text, format) => {
    expect(detectConfigFormat(text)).toBe(format);
  });
});
