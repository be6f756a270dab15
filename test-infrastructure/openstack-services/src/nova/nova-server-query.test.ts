import { describe, expect, it } from 'vitest';
import { NovaFault } from './nova-fault.js';
import type { ServerRecord } from './nova-server-record.js';
import { queryServers } from './nova-server-query.js';

function record(id: string, name: string, overrides: Partial<ServerRecord> = {}): ServerRecord {
  const created = new Date(Date.UTC(2026, 0, 1, 0, 0, Number(id.replace(/\D/g, '')) || 0));
  return {
    id, name, projectId: 'project-a', userId: 'user', flavorId: '1', imageId: 'image', availabilityZone: 'nova', host: 'host-1', vmState: 'active',
    created, updated: created, launchedAt: created, metadata: {}, description: null, keyName: null, securityGroups: ['default'], accessIPv4: '', accessIPv6: '',
    tags: [], reservationId: `r-${id}`, instanceName: `instance-${id}`, userData: null, createdPortIds: [], portIds: [], ...overrides,
  };
}

const servers = [
  record('s1', 'node-1'),
  record('s2', 'node-2', { vmState: 'stopped', availabilityZone: 'zone-b', flavorId: '2' }),
  record('s3', 'node-10'),
  record('s4', 'other', { projectId: 'project-b' }),
];
const addresses: Record<string, string[]> = { s1: ['10.0.0.1', 'fd00::1'], s2: ['10.0.0.2'], s3: ['10.0.0.10'], s4: ['10.0.0.4'] };
const member = { projectId: 'project-a', admin: false };
const admin = { projectId: 'project-a', admin: true };
const ids = (query: string, requester = member): string[] => queryServers(servers, new URLSearchParams(query), requester, (server) => addresses[server.id] ?? []).servers.map((server) => server.id);

describe('Nova stand-in server queries', () => {
  it.each([
    ['', member, ['s3', 's2', 's1']],
    ['name=^node-1$', member, ['s1']],
    ['name=node-1', member, ['s3', 's1']],
    ['status=SHUTOFF', member, ['s2']],
    ['status=active', member, ['s3', 's1']],
    ['status=ACTIVE&status=SHUTOFF', member, ['s3', 's2', 's1']],
    ['all_tenants=1', member, ['s3', 's2', 's1']],
    ['all_tenants=1', admin, ['s4', 's3', 's2', 's1']],
    ['all_tenants=0', admin, ['s3', 's2', 's1']],
    ['all_tenants=True&project_id=project-b', admin, ['s4']],
    ['all_tenants=True&tenant_id=project-b', admin, ['s4']],
    ['ip=^10\\.0\\.0\\.1$', member, ['s1']],
    ['ip=10\\.0\\.0\\.1', member, ['s3', 's1']],
    ['ip6=fd00::', member, ['s1']],
    ['flavor=2', member, ['s2']],
    ['availability_zone=zone-b', member, ['s2']],
    ['changes-since=2026-01-01T00:00:02Z', member, ['s3', 's2']],
    ['sort_key=display_name&sort_dir=asc', member, ['s1', 's3', 's2']],
  ] as const)('%s (admin %s)', (query, requester, expected) => {
    expect(ids(query, requester)).toEqual(expected);
  });

  it('pages with limit and marker, linking the next page whenever a page is full', () => {
    const first = queryServers(servers, new URLSearchParams('limit=2'), member, () => []);
    expect([first.servers.map((server) => server.id), first.nextMarker]).toEqual([['s3', 's2'], 's2']);
    const second = queryServers(servers, new URLSearchParams('limit=2&marker=s2'), member, () => []);
    expect([second.servers.map((server) => server.id), second.nextMarker]).toEqual([['s1'], undefined]);
    const exact = queryServers(servers, new URLSearchParams('limit=3'), member, () => []);
    expect(exact.nextMarker).toBe('s1');
  });

  it.each([
    ['marker=nope', 'marker [nope] not found'],
    ['limit=-1', "Invalid input for query parameters limit. Value: -1. '-1' does not match '^[0-9]*$'"],
    ['name=(', 'Invalid regular expression for filter name: ('],
    ['deleted=true', 'The Nova stand-in does not implement the servers filter or parameter "deleted"'],
    ['sort_key=locked', 'The Nova stand-in does not sort servers by "locked"'],
    ['changes-since=yesterday', 'Invalid input for query parameters changes-since. Value: yesterday. yesterday is not a valid date-time'],
  ])('refuses %s with 400', (query, message) => {
    let caught: unknown;
    try {
      ids(query);
    } catch (error) {
      caught = error;
    }
    expect(caught instanceof NovaFault && [caught.status, caught.message]).toEqual([400, message]);
  });
});
