import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cloudsYaml, OpenStackCli, OpenStackCliError } from './openstack-cli.js';

const endpoint = { authUrl: 'http://127.0.0.1:5000/v3', region: 'RegionOne', username: 'admin', password: 'secret-password', projectName: 'admin', userDomainName: 'Default', projectDomainName: 'Default' };

describe('openstack CLI configuration', () => {
  it('writes a clouds.yaml without the password, with the region and no image service', () => {
    const yaml = cloudsYaml(endpoint, 'openstack-services');
    expect(yaml).not.toContain('secret-password');
    expect(yaml).toContain('  openstack-services:\n    auth:\n      auth_url: "http://127.0.0.1:5000/v3"\n      username: "admin"');
    expect(yaml).toContain('    region_name: "RegionOne"');
    expect(yaml).toContain('    image_endpoint_override: "http://127.0.0.1:9/"');
    expect(yaml).not.toContain('cacert');
  });

  it('passes a CA file as cacert', () => {
    expect(cloudsYaml({ ...endpoint, caFile: '/tmp/ca.pem' }, 'c')).toContain('    cacert: "/tmp/ca.pem"');
  });
});

describe('OpenStackCli runs', () => {
  // A stand-in for the `openstack` command: prints its arguments and environment as JSON, or fails.
  const fakeCli = (): string => {
    const directory = mkdtempSync(join(tmpdir(), 'fake-openstack-'));
    const script = join(directory, 'openstack');
    writeFileSync(
      script,
      `#!/bin/sh\nif [ "$1" = fail ]; then echo "Error: bad request for $OS_PASSWORD" >&2; exit 1; fi\nnode -e 'console.log(JSON.stringify({ args: process.argv.slice(1), env: process.env, clouds: require("fs").readFileSync(process.env.OS_CLIENT_CONFIG_FILE, "utf8") }))' -- "$@"\n`,
      { mode: 0o755 },
    );
    return script;
  };

  it('adds -f json, gives only its own environment and removes the configuration afterwards', async () => {
    process.env['OS_AUTH_URL'] = 'http://elsewhere:5000/v3';
    try {
      const cli = new OpenStackCli({ ...endpoint, caFile: '/tmp/ca.pem' }, { command: fakeCli() });
      const answer = await cli.json<{ args: string[]; env: Record<string, string>; clouds: string }>(['server', 'show', 'abc']);
      expect(answer.args).toEqual(['server', 'show', 'abc', '-f', 'json']);
      expect(Object.keys(answer.env).filter((key) => key.startsWith('OS_')).sort()).toEqual(['OS_CACERT', 'OS_CLIENT_CONFIG_FILE', 'OS_CLOUD', 'OS_PASSWORD']);
      expect([answer.env['OS_PASSWORD'], answer.env['OS_CACERT'], answer.env['OS_CLOUD']]).toEqual(['secret-password', '/tmp/ca.pem', 'openstack-services']);
      expect(answer.env['HOME']).toBe(dirname(answer.env['OS_CLIENT_CONFIG_FILE']!));
      expect(answer.clouds).toContain('cacert: "/tmp/ca.pem"');
      expect(existsSync(answer.env['HOME']!)).toBe(false);
    } finally {
      delete process.env['OS_AUTH_URL'];
    }
  });

  it('rejects a failing command with its error output, the password replaced', async () => {
    const cli = new OpenStackCli(endpoint, { command: fakeCli() });
    const error = await cli.run(['fail', 'now']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenStackCliError);
    expect([(error as OpenStackCliError).exitCode, (error as Error).message]).toEqual([1, 'openstack fail now failed (exit 1): Error: bad request for ***']);
    expect((error as OpenStackCliError).stderr).not.toContain('secret-password');
  });
});
