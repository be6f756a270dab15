/**
 * The flags upstream's openstack-cloud-controller-manager adds to k8s.io/cloud-provider's command
 * (`cmd/openstack-cloud-controller-manager/main.go`: `--user-agent`, repeatable) are accepted by our
 * bin and take effect; the core flags are checked in core (`packages/core/src/app/upstream-flags.test.ts`).
 */
import { CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS, parseCommandLine } from '@ccm/core/app';
import { describe, expect, it } from 'vitest';
import { OPENSTACK_FLAGS, userAgentPrefix } from '../src/cloud-controller-manager/openstack-flags.js';
import { readOpenStackCloudConfig } from '../src/config/read-openstack-cloud-config.js';
import { renderOpenstackReference } from '../src/docs/render-openstack-reference.js';
import { createOpenStackSdkClient, OPENSTACK_USER_AGENT } from '../src/ports/sdk/openstack-sdk-client.js';

describe('upstream openstack-cloud-controller-manager flags', () => {
  it('--user-agent is accepted, repeatable, implemented (not ignored)', () => {
    const result = parseCommandLine(['--user-agent=cluster-a/1', '--user-agent', 'team-b'], { additionalFlags: [OPENSTACK_FLAGS] });
    expect(result.kind).toBe('run');
    if (result.kind !== 'run') return;
    expect(result.flags.valuesOf(OPENSTACK_FLAGS).userAgent).toEqual(['cluster-a/1', 'team-b']);
    expect(result.registry.definition('user-agent')?.ignored).toBeUndefined();
  });

  it('--user-agent is pflag StringArray: a comma is part of the component, the default is none', () => {
    const result = parseCommandLine(['--user-agent=cluster-a/1 (linux, amd64)'], { additionalFlags: [OPENSTACK_FLAGS] });
    if (result.kind !== 'run') throw new Error(result.kind);
    expect(result.flags.valuesOf(OPENSTACK_FLAGS).userAgent).toEqual(['cluster-a/1 (linux, amd64)']);
    const defaults = parseCommandLine([], { additionalFlags: [OPENSTACK_FLAGS] });
    if (defaults.kind !== 'run') throw new Error(defaults.kind);
    expect(defaults.flags.valuesOf(OPENSTACK_FLAGS).userAgent).toEqual([]);
    expect(() => parseCommandLine(['--user-agent'], { additionalFlags: [OPENSTACK_FLAGS] })).toThrow(/flag needs an argument: --user-agent/);
  });

  it('each value is prepended in turn, as gophercloud UserAgent.Prepend: the last one first, before the CCM\'s own', () => {
    expect(userAgentPrefix([])).toBe('');
    expect(userAgentPrefix(['cluster-a/1', 'team-b'])).toBe('team-b cluster-a/1');
  });

  it('the generated docs list --user-agent as supported, with its pflag type', () => {
    expect(renderOpenstackReference()).toContain('| `--user-agent` | stringArray | (none) | supported |');
  });

  it('the bin keeps every core flag besides it', () => {
    const result = parseCommandLine([], { additionalFlags: [OPENSTACK_FLAGS] });
    expect(result.kind).toBe('run');
    if (result.kind !== 'run') return;
    const core = CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS.flatMap((group) => Object.values(group.flags).map((definition) => definition.name));
    expect(core.length).toBeGreaterThan(80);
    expect(core.filter((name) => result.registry.definition(name) === undefined)).toEqual([]);
  });
});

describe('the User-Agent the OpenStack client sends', () => {
  it('carries the --user-agent data before the CCM\'s own name', async () => {
    const { createServer } = await import('node:http');
    const agents: string[] = [];
    const server = createServer((request, response) => {
      agents.push(request.headers['user-agent'] ?? '');
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"code":401,"message":"no"}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      const { config } = readOpenStackCloudConfig(`[Global]\nauth-url = http://127.0.0.1:${port}/v3\nusername = u\npassword = p\ntenant-id = p1\ndomain-id = default\nregion = RegionOne\n`, 'cloud.conf', { environment: {} });
      const client = createOpenStackSdkClient(config.global, { requestTimeoutMs: 5_000, userAgent: userAgentPrefix(['cluster-a/1', 'team-b']) });
      await client.compute.version().catch(() => undefined);
      expect(agents[0]).toBe(`team-b cluster-a/1 ${OPENSTACK_USER_AGENT}`);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
