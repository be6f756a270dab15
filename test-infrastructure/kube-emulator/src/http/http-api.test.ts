import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startKubeEmulator, type KubeEmulator } from '../kube-emulator.js';
import { request } from '../test-support/http-client.js';

let emulator: KubeEmulator;
let base: string;
const tableAccept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

beforeAll(async () => {
  emulator = await startKubeEmulator();
  base = emulator.url;
  emulator.create('nodes', {
    metadata: { name: 'worker-1', labels: { 'node-role.kubernetes.io/worker': '', zone: 'a' } },
    status: { conditions: [{ type: 'Ready', status: 'True' }], addresses: [{ type: 'InternalIP', address: '10.0.0.1' }], nodeInfo: { kubeletVersion: 'v1.32.1' } },
  });
  emulator.create('nodes', { metadata: { name: 'worker-2', labels: { zone: 'b' } }, spec: { unschedulable: true } });
});
afterAll(async () => {
  await emulator.close();
});

describe('discovery', () => {
  it('serves /version, health endpoints and /api', async () => {
    expect((await request(base, 'GET', '/version')).body).toMatchObject({ major: '1', minor: '32', gitVersion: expect.stringMatching(/^v1\.32\./) });
    for (const path of ['/healthz', '/livez', '/readyz', '/readyz/ping']) expect(await request(base, 'GET', path)).toMatchObject({ status: 200, body: 'ok' });
    expect((await request(base, 'GET', '/api')).body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
  });

  it('lists core resources with verbs, short names and status subresources', async () => {
    const { body } = await request<{ groupVersion: string; resources: Array<Record<string, unknown>> }>(base, 'GET', '/api/v1');
    expect(body.groupVersion).toBe('v1');
    const byName = new Map(body.resources.map((resource) => [resource['name'], resource]));
    expect(byName.get('nodes')).toMatchObject({ namespaced: false, kind: 'Node', shortNames: ['no'], verbs: expect.arrayContaining(['watch', 'patch', 'deletecollection']) });
    expect(byName.get('services')).toMatchObject({ namespaced: true, shortNames: ['svc'] });
    expect(byName.get('namespaces')).toMatchObject({ shortNames: ['ns'] });
    expect(byName.get('configmaps')).toMatchObject({ shortNames: ['cm'] });
    expect(byName.get('events')).toMatchObject({ shortNames: ['ev'] });
    expect(byName.get('nodes/status')).toMatchObject({ verbs: ['get', 'patch', 'update'] });
    expect(byName.get('services/status')).toBeDefined();
    expect(byName.has('configmaps/status')).toBe(false);
  });

  it('lists the API groups and their resources', async () => {
    const { body } = await request<{ groups: Array<{ name: string; preferredVersion: { groupVersion: string } }> }>(base, 'GET', '/apis');
    expect(body.groups.map((group) => [group.name, group.preferredVersion.groupVersion])).toEqual([
      ['coordination.k8s.io', 'coordination.k8s.io/v1'],
      ['events.k8s.io', 'events.k8s.io/v1'],
    ]);
    expect((await request(base, 'GET', '/apis/coordination.k8s.io')).body).toMatchObject({ kind: 'APIGroup', name: 'coordination.k8s.io' });
    expect((await request(base, 'GET', '/apis/coordination.k8s.io/v1')).body).toMatchObject({ resources: [expect.objectContaining({ name: 'leases', kind: 'Lease' })] });
  });

  it('answers OpenAPI v3 with fieldValidation support and 404 for v2', async () => {
    const root = await request<{ paths: Record<string, { serverRelativeURL: string }> }>(base, 'GET', '/openapi/v3');
    const core = root.body.paths['api/v1'];
    expect(core).toBeDefined();
    const document = await request<{ paths: Record<string, { patch: { parameters: Array<{ name: string }> } }> }>(base, 'GET', core?.serverRelativeURL ?? '');
    expect(document.body.paths['/api/v1/nodes/{name}']?.patch.parameters.map((parameter) => parameter.name)).toContain('fieldValidation');
    expect((await request(base, 'GET', '/openapi/v2')).status).toBe(404);
  });
});

describe('errors', () => {
  it.each([
    ['GET', '/api/v1/widgets', 404, 'NotFound'],
    ['GET', '/apis/apps/v1', 404, 'NotFound'],
    ['GET', '/api/v1/nodes/missing', 404, 'NotFound'],
    ['GET', '/api/v1/services/foo', 404, 'NotFound'],
    ['GET', '/api/v1/namespaces/default/configmaps/x/status', 404, 'NotFound'],
    ['POST', '/api/v1/nodes/worker-1', 405, 'MethodNotAllowed'],
    ['PUT', '/api/v1/nodes', 405, 'MethodNotAllowed'],
    ['DELETE', '/api/v1/nodes/worker-1/status', 405, 'MethodNotAllowed'],
    ['POST', '/api/v1/services', 405, 'MethodNotAllowed'],
    ['GET', '/api/v1/nodes?labelSelector=a%20in%20(', 400, 'BadRequest'],
    ['GET', '/api/v1/nodes?fieldSelector=spec.providerID%3Dx', 400, 'BadRequest'],
    ['GET', '/api/v1/nodes?resourceVersion=abc', 400, 'BadRequest'],
  ])('%s %s -> %i %s', async (method, path, code, reason) => {
    const response = await request(base, method, path);
    expect(response.status).toBe(code);
    expect(response.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code });
  });

  it('names the reason for bad bodies and content types', async () => {
    expect((await request(base, 'POST', '/api/v1/nodes', '{not json')).body).toMatchObject({ code: 400, reason: 'BadRequest' });
    expect((await request(base, 'POST', '/api/v1/nodes', 'x', { 'Content-Type': 'application/vnd.kubernetes.protobuf' })).status).toBe(415);
    const patch = await request(base, 'PATCH', '/api/v1/nodes/worker-1', { metadata: {} }, { 'Content-Type': 'application/json' });
    expect(patch.body).toMatchObject({ code: 415, reason: 'UnsupportedMediaType' });
    const apply = await request(base, 'PATCH', '/api/v1/nodes/worker-1?fieldManager=x', { metadata: {} }, { 'Content-Type': 'application/apply-patch+yaml' });
    expect(apply.status).toBe(415);
    expect((await request(base, 'POST', '/api/v1/nodes?dryRun=Sometimes', { metadata: { name: 'x' } })).status).toBe(422);
    expect((await request(base, 'GET', '/api/v1/nodes', undefined, { Accept: 'application/vnd.kubernetes.protobuf' })).status).toBe(406);
  });
});

describe('objects over HTTP', () => {
  it('creates (201), gets, lists and deletes', async () => {
    const created = await request(base, 'POST', '/api/v1/namespaces/default/configmaps?fieldManager=kubectl-create&fieldValidation=Strict', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: '1' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'settings', namespace: 'default' } });
    expect((await request(base, 'GET', '/api/v1/namespaces/default/configmaps/settings')).body).toMatchObject({ data: { a: '1' } });
    const list = await request<{ kind: string; metadata: { resourceVersion: string }; items: Array<Record<string, unknown>> }>(base, 'GET', '/api/v1/configmaps');
    expect(list.body.kind).toBe('ConfigMapList');
    expect(list.body.items[0]).not.toHaveProperty('kind');
    expect(list.body.metadata.resourceVersion).toBe(emulator.resourceVersion());
    const deleted = await request(base, 'DELETE', '/api/v1/namespaces/default/configmaps/settings', { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
    expect(deleted.body).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'settings', kind: 'configmaps', uid: expect.any(String) } });
  });

  it('accepts YAML bodies and serves YAML', async () => {
    const body = stringify({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'lock' }, spec: { holderIdentity: 'a' } });
    const created = await request(base, 'POST', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases', body, { 'Content-Type': 'application/yaml' });
    expect(created.status).toBe(201);
    const yaml = await fetch(`${base}/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/lock`, { headers: { Accept: 'application/yaml' } });
    expect(yaml.headers.get('content-type')).toBe('application/yaml');
    expect(await yaml.text()).toContain('holderIdentity: a');
  });

  it('patches with each patch type and on /status', async () => {
    const path = '/api/v1/nodes/worker-2';
    expect((await request(base, 'PATCH', path, { metadata: { labels: { m: '1' } } }, { 'Content-Type': 'application/merge-patch+json' })).status).toBe(200);
    expect((await request(base, 'PATCH', path, [{ op: 'add', path: '/metadata/labels/j', value: '2' }], { 'Content-Type': 'application/json-patch+json' })).status).toBe(200);
    const strategic = await request<{ metadata: { labels: Record<string, string> } }>(base, 'PATCH', path, { metadata: { labels: { s: '3' } } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
    expect(strategic.body.metadata.labels).toEqual({ zone: 'b', m: '1', j: '2', s: '3' });
    const failedTest = await request(base, 'PATCH', path, [{ op: 'test', path: '/metadata/labels/m', value: 'x' }], { 'Content-Type': 'application/json-patch+json' });
    expect(failedTest.body).toMatchObject({ code: 422, reason: 'Invalid' });
    const stale = await request(base, 'PATCH', path, { metadata: { resourceVersion: '1', labels: { late: 'yes' } } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(stale.body).toMatchObject({ code: 409, reason: 'Conflict' });
    const status = await request<{ status: Record<string, unknown> }>(base, 'PATCH', `${path}/status`, { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.2' }] } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
    expect(status.body.status['addresses']).toEqual([{ type: 'InternalIP', address: '10.0.0.2' }]);
  });

  it('returns the object while finalizers hold it and supports dry-run', async () => {
    await request(base, 'POST', '/api/v1/nodes', { metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    const deleting = await request<{ kind: string; metadata: Record<string, unknown> }>(base, 'DELETE', '/api/v1/nodes/held');
    expect(deleting.status).toBe(200);
    expect(deleting.body.kind).toBe('Node');
    expect(deleting.body.metadata['deletionTimestamp']).toBeDefined();
    const dry = await request(base, 'POST', '/api/v1/nodes?dryRun=All', { metadata: { name: 'dry' } });
    expect(dry.status).toBe(201);
    expect((await request(base, 'GET', '/api/v1/nodes/dry')).status).toBe(404);
  });

  it('deletes collections by selector', async () => {
    for (const name of ['a', 'b', 'c']) await request(base, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name, labels: { batch: name === 'c' ? 'keep' : 'drop' } } });
    const deleted = await request<{ items: Array<{ metadata: { name: string } }> }>(base, 'DELETE', '/api/v1/namespaces/default/configmaps?labelSelector=batch%3Ddrop');
    expect(deleted.body.items.map((item) => item.metadata.name)).toEqual(['a', 'b']);
    expect(emulator.list('configmaps', { namespace: 'default' }).map((item) => item.metadata.name)).toEqual(['c']);
  });
});

describe('server-side printing', () => {
  it('serves a Table for kubectl and falls back to a list for plain JSON', async () => {
    const table = await request<{ kind: string; columnDefinitions: Array<{ name: string; priority: number }>; rows: Array<{ cells: unknown[]; object: Record<string, unknown> }> }>(
      base,
      'GET',
      '/api/v1/nodes?limit=500',
      undefined,
      { Accept: tableAccept },
    );
    expect(table.body.kind).toBe('Table');
    expect(table.body.columnDefinitions.filter((column) => column.priority === 0).map((column) => column.name)).toEqual(['Name', 'Status', 'Roles', 'Age', 'Version']);
    const worker = table.body.rows.find((row) => row.cells[0] === 'worker-1');
    expect(worker?.cells.slice(0, 3)).toEqual(['worker-1', 'Ready', 'worker']);
    expect(worker?.cells[5]).toBe('10.0.0.1');
    expect(worker?.object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'worker-1' } });
    expect(table.body.rows.find((row) => row.cells[0] === 'worker-2')?.cells[1]).toBe('Unknown,SchedulingDisabled');
    const plain = await request(base, 'GET', '/api/v1/nodes', undefined, { Accept: 'application/json;as=Table;v=v9;g=meta.k8s.io,application/json' });
    expect(plain.body).toMatchObject({ kind: 'NodeList' });
    const metadata = await request(base, 'GET', '/api/v1/nodes', undefined, { Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' });
    expect(metadata.body).toMatchObject({ kind: 'PartialObjectMetadataList', items: expect.any(Array) });
  });

  it('prints services like kubectl', async () => {
    emulator.create('services', { metadata: { name: 'web', namespace: 'default' }, spec: { type: 'LoadBalancer', ports: [{ port: 80, nodePort: 31080 }] } });
    const table = await request<{ rows: Array<{ cells: unknown[] }> }>(base, 'GET', '/api/v1/namespaces/default/services/web', undefined, { Accept: tableAccept });
    const cells = table.body.rows[0]?.cells ?? [];
    expect(cells[0]).toBe('web');
    expect(cells[1]).toBe('LoadBalancer');
    expect(cells[3]).toBe('<pending>');
    expect(cells[4]).toBe('80:31080/TCP');
  });
});
