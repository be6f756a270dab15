import { describe, expect, it } from 'vitest';
import type { HttpFetch, HttpRequestInit } from '../http/http-fetch.js';
import { VapiTaggingClient } from './vapi-tagging-client.js';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function fakeRest(answer: (request: Seen, index: number) => { status: number; body?: unknown }): { fetch: HttpFetch; seen: Seen[] } {
  const seen: Seen[] = [];
  const fetch: HttpFetch = async (url: string, init: HttpRequestInit) => {
    const request = { method: init.method, url, headers: init.headers, body: init.body };
    seen.push(request);
    const { status, body } = answer(request, seen.length - 1);
    return new Response(body === undefined ? '' : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, seen };
}

const credentials = () => ({ username: 'ccm@vsphere.local', password: 'p@ss:word' });

describe('VapiTaggingClient', () => {
  it('creates a session with basic auth and sends its id on later calls', async () => {
    const { fetch, seen } = fakeRest((request) =>
      request.url.endsWith('/com/vmware/cis/session') ? { status: 200, body: { value: 'sid-1' } } : { status: 200, body: { value: ['urn:tag:1'] } },
    );
    const client = new VapiTaggingClient({ server: 'https://vc.example.com:8443', credentials, fetch });
    await expect(client.listAttachedTags({ type: 'HostSystem', value: 'host-14' })).resolves.toEqual(['urn:tag:1']);
    expect(seen[0]).toMatchObject({ method: 'POST', url: 'https://vc.example.com:8443/rest/com/vmware/cis/session' });
    expect(seen[0]!.headers['authorization']).toBe(`Basic ${Buffer.from('ccm@vsphere.local:p@ss:word').toString('base64')}`);
    expect(seen[1]).toMatchObject({
      method: 'POST',
      url: 'https://vc.example.com:8443/rest/com/vmware/cis/tagging/tag-association?~action=list-attached-tags',
      body: '{"object_id":{"type":"HostSystem","id":"host-14"}}',
    });
    expect(seen[1]!.headers['vmware-api-session-id']).toBe('sid-1');
  });

  it('creates a new session once when a call answers 401', async () => {
    let sessions = 0;
    const { fetch, seen } = fakeRest((request) => {
      if (request.url.endsWith('/session')) return { status: 200, body: { value: `sid-${++sessions}` } };
      if (request.headers['vmware-api-session-id'] === 'sid-1') return { status: 401, body: { type: 'com.vmware.vapi.std.errors.unauthenticated' } };
      return { status: 200, body: { value: { id: 'urn:tag:1', name: 'zone-a', category_id: 'urn:cat:1', description: '' } } };
    });
    const client = new VapiTaggingClient({ server: 'vc.example.com', credentials, fetch });
    await expect(client.getTag('urn:vmomi:InventoryServiceTag:1:GLOBAL')).resolves.toEqual({ id: 'urn:tag:1', name: 'zone-a', categoryId: 'urn:cat:1', description: '' });
    expect(seen.map((request) => request.url.replace('https://vc.example.com/rest', ''))).toEqual([
      '/com/vmware/cis/session',
      '/com/vmware/cis/tagging/tag/id:urn:vmomi:InventoryServiceTag:1:GLOBAL',
      '/com/vmware/cis/session',
      '/com/vmware/cis/tagging/tag/id:urn:vmomi:InventoryServiceTag:1:GLOBAL',
    ]);
  });

  it('reports wrong credentials as InvalidLogin without the password', async () => {
    const { fetch } = fakeRest(() => ({ status: 401, body: { type: 'com.vmware.vapi.std.errors.unauthenticated' } }));
    const client = new VapiTaggingClient({ server: 'vc.example.com', credentials, fetch });
    const error = (await client.listCategories().catch((caught: unknown) => caught)) as Error;
    expect(error).toMatchObject({ kind: 'InvalidLogin', httpStatus: 401 });
    expect(error.message).toBe('cannot log in to the vAPI endpoint of vc.example.com as "ccm@vsphere.local": the user name or password is wrong (HTTP 401)');
    expect(error.message).not.toContain('p@ss');
  });

  it('maps a 404 to NotFound with the vAPI error type and message', async () => {
    const { fetch } = fakeRest((request) =>
      request.url.endsWith('/session')
        ? { status: 200, body: { value: 'sid' } }
        : { status: 404, body: { type: 'com.vmware.vapi.std.errors.not_found', value: { messages: [{ default_message: 'Category urn:x not found' }] } } },
    );
    const client = new VapiTaggingClient({ server: 'vc.example.com', credentials, fetch });
    await expect(client.getCategory('urn:x')).rejects.toMatchObject({
      kind: 'NotFound',
      httpStatus: 404,
      message: 'GET category: HTTP 404 (com.vmware.vapi.std.errors.not_found: Category urn:x not found)',
    });
  });
});
