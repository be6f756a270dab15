import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { asGceApiError } from '../../errors.js';
import { createTokenUrlAuthClient, TOKEN_REFRESH_MARGIN_MS } from './token-url-auth-client.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A token endpoint answering `answer(n)` to the n-th POST; records the bodies. */
async function tokenEndpoint(answer: (count: number) => { status: number; body: unknown }): Promise<{ url: string; bodies: string[] }> {
  const bodies: string[] = [];
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      bodies.push(text);
      const { status, body } = answer(bodies.length);
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`, bodies };
}

describe('the token-url token source', () => {
  it('POSTs token-body, caches the token until a minute before expireTime, then refreshes once for concurrent callers', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const endpoint = await tokenEndpoint((count) => ({ status: 200, body: { accessToken: `t${count}`, expireTime: new Date(now + 10 * 60_000).toISOString() } }));
    const client = createTokenUrlAuthClient(endpoint.url, '{"scope":"x"}', () => now);
    expect((await client.getRequestHeaders()).get('authorization')).toBe('Bearer t1');
    expect((await client.getRequestHeaders()).get('authorization')).toBe('Bearer t1');
    now += 10 * 60_000 - TOKEN_REFRESH_MARGIN_MS + 1;
    const headers = await Promise.all([client.getRequestHeaders(), client.getRequestHeaders(), client.getRequestHeaders()]);
    expect(headers.map((header) => header.get('authorization'))).toEqual(['Bearer t2', 'Bearer t2', 'Bearer t2']);
    expect(endpoint.bodies).toEqual(['{"scope":"x"}', '{"scope":"x"}']);
  });

  it('reports a refusing endpoint as Unauthorized, a failing one as retryable Unavailable, a bad answer as Unauthorized', async () => {
    const answers = [
      { status: 401, body: {} },
      { status: 503, body: {} },
      { status: 200, body: { token: 'wrong-shape' } },
    ];
    const endpoint = await tokenEndpoint((count) => answers[count - 1] ?? { status: 500, body: {} });
    const client = createTokenUrlAuthClient(endpoint.url, '');
    const kinds: Array<[string | undefined, boolean | undefined]> = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const error = await client.getRequestHeaders().then(
        () => undefined,
        (failure: unknown) => failure,
      );
      kinds.push([asGceApiError(error)?.kind, asGceApiError(error)?.retryable]);
    }
    expect(kinds).toEqual([
      ['Unauthorized', false],
      ['Unavailable', true],
      ['Unauthorized', false],
    ]);
  });
});
