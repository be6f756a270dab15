import { describe, expect, it } from 'vitest';
import { CloudConfigError, formatCloudConfigProblem } from '../cloud-config-error.js';
import { defineGcfgSchema, parseGcfgBool, parseGcfgInt } from './gcfg-schema.js';
import { parseGcfg } from './parse-gcfg.js';
import { renderGcfgSchemaDoc } from './render-gcfg-schema-doc.js';

const schema = defineGcfgSchema({
  global: {
    name: 'Global',
    description: 'Settings for the whole provider.',
    keys: {
      zone: { type: 'string', name: 'Zone', description: 'Legacy zone.' },
      tenantId: { type: 'string', name: 'tenant-id', description: 'Tenant ID.' },
      password: { type: 'string', name: 'password', description: 'Password.', secret: true },
      insecure: { type: 'bool', name: 'insecure-flag', description: 'Skip TLS verification.' },
      enabled: { type: 'bool', name: 'enabled', description: 'Enabled.', default: false },
      port: { type: 'int', name: 'port', description: 'Port.', default: 443 },
      families: { type: 'list', name: 'NodeIPFamilies', description: 'IP families.', default: ['ipv4'] },
      mode: { type: 'string', name: 'mode', description: 'Mode.', allowed: ['Managed', ''] },
      oldName: { type: 'string', name: 'old-name', description: 'Old.', deprecated: 'use new-name' },
    },
  },
  virtualCenters: {
    name: 'VirtualCenter',
    subsections: true,
    keys: {
      user: { type: 'string', name: 'user', description: 'User.', required: true },
      datacenters: { type: 'string', name: 'datacenters', description: 'Datacenters.' },
    },
  },
});

describe('defineGcfgSchema', () => {
  it('reads a typed configuration with defaults', () => {
    const { config, warnings } = schema.parse('[Global]\nzone = a\n', 'cloud.conf');
    expect(warnings).toEqual([]);
    expect(config.global).toEqual({ zone: 'a', tenantId: '', password: '', insecure: false, enabled: false, port: 443, families: ['ipv4'], mode: '', oldName: '' });
    expect(config.virtualCenters.size).toBe(0);
  });

  it('handles the ecosystem pitfalls', () => {
    const text = [
      '[Global]',
      'password = "p@ss;word#1" ; comment',
      'enabled',
      'tenant-id = 0001234',
      'port = 0x1bb',
      'NodeIPFamilies = ipv6',
      'nodeipfamilies = ipv4',
      'INSECURE-FLAG = Yes',
      '[VirtualCenter "10.0.0.1"]',
      'user = admin@vsphere.local',
      'datacenters = dc1,dc2',
      '',
    ].join('\n');
    const { config } = schema.parse(text, 'cloud.conf');
    expect(config.global.password).toBe('p@ss;word#1');
    expect(config.global.enabled).toBe(true);
    expect(config.global.tenantId).toBe('0001234');
    expect(config.global.port).toBe(443);
    expect(config.global.families).toEqual(['ipv6', 'ipv4']);
    expect(config.global.insecure).toBe(true);
    expect([...config.virtualCenters.keys()]).toEqual(['10.0.0.1']);
    expect(config.virtualCenters.get('10.0.0.1')).toEqual({ user: 'admin@vsphere.local', datacenters: 'dc1,dc2' });
  });

  it('collects every problem with file, line, section and key', () => {
    const text = [
      '[Global]',
      'enabled = maybe',
      'port = 44x',
      'port',
      'zone',
      'mode = Other',
      'unknown-key = 1',
      '[Nope]',
      '[VirtualCenter "vc1"]',
      'datacenters = dc1',
      'Zone us-east-1',
      '',
    ].join('\n');
    const result = schema.read(parseGcfg(text, 'cloud.conf'));
    expect(result.problems.map(formatCloudConfigProblem)).toEqual([
      'cloud.conf:2: section [Global], key "enabled": invalid boolean "maybe" (use true/false, yes/no, on/off or 1/0)',
      'cloud.conf:3: section [Global], key "port": invalid integer "44x"',
      'cloud.conf:4: section [Global], key "port": a value is required (write name = value)',
      'cloud.conf:5: section [Global], key "Zone": a value is required (write name = value)',
      'cloud.conf:6: section [Global], key "mode": invalid value "Other": must be one of "Managed", ""',
      'cloud.conf:7: unknown key "unknown-key" in section [Global]',
      'cloud.conf:8: unknown section "Nope"',
      'cloud.conf:9: required key "user" in section [VirtualCenter "vc1"] is not set',
      'cloud.conf:11: missing \'=\' after variable "Zone"',
    ]);
    expect(() => schema.parse(text, 'cloud.conf')).toThrow(CloudConfigError);
    try {
      schema.parse(text, 'cloud.conf');
    } catch (error) {
      expect((error as CloudConfigError).problems).toHaveLength(9);
      expect((error as CloudConfigError).fileName).toBe('cloud.conf');
      expect((error as CloudConfigError).line).toBe(2);
    }
  });

  it('never echoes the value of a secret key (declared secret or named like one)', () => {
    const secrets = defineGcfgSchema({
      global: {
        name: 'Global',
        keys: {
          password: { type: 'string', name: 'password', description: 'Password.', allowed: ['a'] },
          tokenTtl: { type: 'int', name: 'token-ttl', description: 'TTL.' },
          keyRotation: { type: 'bool', name: 'use-key-rotation', description: 'Rotate.' },
          hidden: { type: 'string', name: 'mode', description: 'Mode.', secret: true, allowed: ['x'] },
          port: { type: 'int', name: 'port', description: 'Port.' },
        },
      },
    });
    const text = ['[Global]', 'password = Sup3rS3cret', 'token-ttl = S3cretTtl', 'use-key-rotation = S3cretBool', 'mode = S3cretMode', 'port = 44x', ''].join('\n');
    let caught: unknown;
    try {
      secrets.parse(text, 'cloud.conf');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CloudConfigError);
    expect((caught as CloudConfigError).message.split('\n')).toEqual([
      'cloud.conf:2: section [Global], key "password": invalid value (value withheld): must be one of "a"',
      'cloud.conf:3: section [Global], key "token-ttl": invalid integer (value withheld)',
      'cloud.conf:4: section [Global], key "use-key-rotation": invalid boolean (value withheld) (use true/false, yes/no, on/off or 1/0)',
      'cloud.conf:5: section [Global], key "mode": invalid value (value withheld): must be one of "x"',
      'cloud.conf:6: section [Global], key "port": invalid integer "44x"',
    ]);
    expect((caught as CloudConfigError).message).not.toContain('S3cret');
  });

  it('can treat unknown names as warnings (gcfg FatalOnly)', () => {
    const result = schema.read(parseGcfg('[Global]\nextra = 1\n[Other]\nx = y\n[Global "sub"]\n', 'c.conf'), { unknown: 'warning' });
    expect(result.problems).toEqual([]);
    expect(result.warnings.map(formatCloudConfigProblem)).toEqual([
      'c.conf:2: unknown key "extra" in section [Global]',
      'c.conf:3: unknown section "Other"',
      'c.conf:5: section "Global" does not take a subsection (found [Global "sub"])',
    ]);
  });

  it('warns about deprecated keys', () => {
    const { warnings } = schema.parse('[Global]\nold-name = x\n', 'c.conf');
    expect(warnings.map(formatCloudConfigProblem)).toEqual(['c.conf:2: key "old-name" in section [Global] is deprecated: use new-name']);
  });

  it('a bare list name clears the list, including the default', () => {
    const { config } = schema.parse('[Global]\nNodeIPFamilies\n', 'c.conf');
    expect(config.global.families).toEqual([]);
  });

  it('does not share default lists between reads', () => {
    const first = schema.parse('', 'c.conf').config.global.families as string[];
    first.push('mutated');
    expect(schema.parse('', 'c.conf').config.global.families).toEqual(['ipv4']);
  });

  it('a required key of a plain section is reported without a line when the section is absent', () => {
    const required = defineGcfgSchema({ global: { name: 'Global', keys: { url: { type: 'string', name: 'auth-url', description: 'x', required: true } } } });
    expect(required.read(parseGcfg('', 'c.conf')).problems.map(formatCloudConfigProblem)).toEqual(['c.conf: required key "auth-url" in section [Global] is not set']);
  });

  it('rejects a schema declaring a key twice', () => {
    expect(() =>
      defineGcfgSchema({ g: { name: 'G', keys: { a: { type: 'string', name: 'Key', description: '' }, b: { type: 'bool', name: 'key', description: '' } } } }),
    ).toThrow('declares key "key" twice');
  });

  it('renders a documentation table', () => {
    const doc = renderGcfgSchemaDoc(schema);
    expect(doc).toContain('### `[Global]`');
    expect(doc).toContain('| `port` | integer | `443` | Port. |');
    expect(doc).toContain('| `NodeIPFamilies` | string, repeatable | `ipv4` | IP families. |');
    expect(doc).toContain('| `old-name` | string | (empty) | Old. **Deprecated**: use new-name |');
    expect(doc).toContain('### `[VirtualCenter "<name>"]`');
    expect(doc).toContain('| `user` | string | (required) | User. |');
  });
});

describe('value parsers', () => {
  it.each([
    ['true', true], ['YES', true], ['On', true], ['1', true],
    ['false', false], ['no', false], ['OFF', false], ['0', false],
    ['', undefined], ['t', undefined], ['2', undefined],
  ])('parseGcfgBool(%j) = %j', (text, expected) => {
    expect(parseGcfgBool(text)).toBe(expected);
  });

  it.each([
    ['42', 42], ['-7', -7], ['+3', 3], ['0x1F', 31], ['010', 10], ['', undefined], ['1.5', undefined], ['0o7', undefined], ['1e3', undefined],
  ])('parseGcfgInt(%j) = %j', (text, expected) => {
    expect(parseGcfgInt(text)).toBe(expected);
  });
});
