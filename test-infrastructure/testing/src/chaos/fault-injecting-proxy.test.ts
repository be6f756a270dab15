import { createServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import { generateSelfSignedCertificate } from '@ccm/kube-emulator';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ARM_FAULTS, AWS_FAULTS, GCE_FAULTS, KUBE_API_FAULTS, OPENSTACK_FAULTS, SANDBOX_FAULTS, VSPHERE_FAULTS } from './cloud-fault-flavors.js';
import { FaultInjectingProxy } from './fault-injecting-proxy.js';
import { FAULT_KINDS, FaultPlan, type FaultKind } from './fault-plan.js';
import { kubeOperationOf } from './kube-operation.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(url: string, path: string, options: { method?: string; body?: string; timeoutMs?: number } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL(path, url), { method: options.method ?? 'GET', agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    if (options.timeoutMs !== undefined) request.setTimeout(options.timeoutMs, () => request.destroy(new Error('client timeout')));
    request.end(options.body ?? '');
  });
}

let upstream: Server | undefined;
let proxy: FaultInjectingProxy | undefined;
/** Watch responses the upstream keeps open, to end them at teardown. */
const openStreams = new Set<import('node:http').ServerResponse>();

async function startUpstream(): Promise<string> {
  upstream = createServer((request, response) => {
    if ((request.url ?? '').includes('watch=true')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(`${JSON.stringify({ type: 'ADDED', object: { kind: 'Node' } })}\n`);
      openStreams.add(response);
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ method: request.method, url: request.url, body: Buffer.concat(chunks).toString('utf8') }));
    });
  });
  await new Promise<void>((resolve) => upstream!.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
}

const byPath = (request: { path: string }): string => new URL(request.path, 'http://x').pathname.slice(1);

afterEach(async () => {
  for (const stream of openStreams) stream.destroy();
  openStreams.clear();
  await proxy?.close();
  proxy = undefined;
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  upstream = undefined;
});

describe('FaultPlan', () => {
  const sequence = (plan: FaultPlan, operation: string, count: number): Array<FaultKind | undefined> => Array.from({ length: count }, () => plan.next(operation));
  const rates = { serverError: 0.1, throttle: 0.1, timeout: 0.05, reset: 0.05, slow: 0.1 };

  it('gives the same fault sequence per operation for the same seed, whatever the interleaving', () => {
    const first = new FaultPlan({ seed: 42, ratesOf: () => rates });
    const second = new FaultPlan({ seed: 42, ratesOf: () => rates });
    const firstA = sequence(first, 'DescribeInstances', 200);
    // The second plan interleaves another operation: DescribeInstances must not change.
    const secondA: Array<FaultKind | undefined> = [];
    for (let index = 0; index < 200; index++) {
      second.next('CreateLoadBalancer');
      secondA.push(second.next('DescribeInstances'));
    }
    expect(secondA).toEqual(firstA);
    expect(firstA.some((fault) => fault !== undefined)).toBe(true);
  });

  it('gives another sequence for another seed or another operation', () => {
    const base = sequence(FaultPlan.uniform(42, rates), 'DescribeInstances', 200);
    expect(sequence(FaultPlan.uniform(43, rates), 'DescribeInstances', 200)).not.toEqual(base);
    expect(sequence(FaultPlan.uniform(42, rates), 'DescribeSubnets', 200)).not.toEqual(base);
  });

  it('injects each kind at about its rate, and nothing at rate 0', () => {
    const plan = FaultPlan.uniform(7, rates);
    const counts = new Map<FaultKind | undefined, number>();
    for (let index = 0; index < 20_000; index++) {
      const fault = plan.next(`op-${index % 10}`);
      counts.set(fault, (counts.get(fault) ?? 0) + 1);
    }
    for (const kind of FAULT_KINDS) expect((counts.get(kind) ?? 0) / 20_000, kind).toBeCloseTo(rates[kind], 1);
    expect(sequence(FaultPlan.none(), 'x', 1_000).every((fault) => fault === undefined)).toBe(true);
  });
});

describe('FaultInjectingProxy', () => {
  async function proxyWith(plan: FaultPlan, flavor = SANDBOX_FAULTS, extra: Partial<ConstructorParameters<typeof FaultInjectingProxy>[0]> = {}): Promise<FaultInjectingProxy> {
    proxy = new FaultInjectingProxy({ upstream: await startUpstream(), operationOf: byPath, flavor, plan, timeoutMs: 300, slowMs: 300, ...extra });
    return proxy;
  }

  it('forwards untouched without faults and records (time, replica, operation, write) per replica listener', async () => {
    const chaos = await proxyWith(FaultPlan.none());
    const a = await chaos.listen('replica-a');
    const b = await chaos.listen('replica-b');
    expect(a).not.toBe(b);
    const answer = await send(a, '/create?x=1', { method: 'POST', body: 'payload' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ method: 'POST', url: '/create?x=1', body: 'payload' });
    await send(b, '/list');
    const records = chaos.records();
    expect(records.map(({ replica, operation, write, status }) => ({ replica, operation, write, status }))).toEqual([
      { replica: 'replica-a', operation: 'create', write: true, status: 200 },
      { replica: 'replica-b', operation: 'list', write: false, status: 200 },
    ]);
    expect(records[0]!.startedAt).toBeLessThanOrEqual(records[0]!.answeredAt);
  });

  const only = (kind: FaultKind): FaultPlan => FaultPlan.uniform(1, { [kind]: 1 });

  it('serverError: answers the cloud\'s own 5xx', async () => {
    const url = await (await proxyWith(only('serverError'), AWS_FAULTS)).listen('r');
    const answer = await send(url, '/', { method: 'POST', body: 'Action=DescribeInstances&Version=2016-11-15' });
    expect(answer.status).toBe(500);
    expect(answer.body).toContain('<Code>InternalError</Code>');
    expect(proxy!.faultCounts().serverError).toBe(1);
  });

  it('throttle: answers each cloud\'s throttling response with Retry-After', async () => {
    const chaos = await proxyWith(only('throttle'), AWS_FAULTS, { retryAfterSeconds: 2 });
    const url = await chaos.listen('r');
    const ec2 = await send(url, '/', { method: 'POST', body: 'Action=DescribeInstances&Version=2016-11-15' });
    expect(ec2.status).toBe(503);
    expect(ec2.headers['retry-after']).toBe('2');
    expect(ec2.body).toContain('<Code>RequestLimitExceeded</Code>');
    const elb = await send(url, '/', { method: 'POST', body: 'Action=DescribeLoadBalancers&Version=2015-12-01' });
    expect(elb.status).toBe(400);
    expect(elb.body).toContain('<Code>Throttling</Code>');
    expect(VSPHERE_FAULTS.throttle({ method: 'POST', path: '/sdk', headers: {}, body: '' }, 1).status).toBe(503);
    expect(VSPHERE_FAULTS.serverError({ method: 'POST', path: '/sdk', headers: {}, body: '' }).body).toContain('<soapenv:Fault>');
    expect(JSON.parse(SANDBOX_FAULTS.throttle({ method: 'GET', path: '/', headers: {}, body: '' }, 1).body)).toEqual({
      error: { code: 'Throttling', message: expect.any(String) },
    });
    expect(KUBE_API_FAULTS.throttle({ method: 'GET', path: '/', headers: {}, body: '' }, 3)).toMatchObject({ status: 429, headers: { 'retry-after': '3' } });
    expect(chaos.faultCounts().throttle).toBe(2);
  });

  it('reset: the connection is reset without an answer', async () => {
    const url = await (await proxyWith(only('reset'))).listen('r');
    await expect(send(url, '/x')).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(proxy!.faultCounts().reset).toBe(1);
  });

  it('timeout: nothing comes back until the client gives up', async () => {
    const url = await (await proxyWith(only('timeout'), SANDBOX_FAULTS, { timeoutMs: 5_000 })).listen('r');
    const started = Date.now();
    await expect(send(url, '/x', { timeoutMs: 200 })).rejects.toThrow(/client timeout/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(proxy!.faultCounts().timeout).toBe(1);
  });

  it('slow: answers correctly, late', async () => {
    const url = await (await proxyWith(only('slow'))).listen('r');
    const started = Date.now();
    const answer = await send(url, '/x');
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('cuts open watch streams', async () => {
    const chaos = await proxyWith(FaultPlan.none(), KUBE_API_FAULTS, { operationOf: kubeOperationOf });
    const url = await chaos.listen('r');
    const ended = new Promise<string>((resolve) => {
      httpRequest(new URL('/api/v1/nodes?watch=true', url), { agent: false }, (response) => {
        response.on('data', () => undefined);
        response.on('close', () => resolve('closed'));
        response.on('error', () => resolve('closed'));
      }).end();
    });
    await expect.poll(() => chaos.records().find((record) => record.status === 200)?.operation).toBe('watch nodes');
    expect(chaos.cutWatches()).toBe(1);
    expect(await ended).toBe('closed');
    expect(chaos.faultCounts().watchCut).toBe(1);
  });

  it('answers a watch resume with an Expired (410) ERROR event, never a first watch', async () => {
    const chaos = await proxyWith(FaultPlan.none(), KUBE_API_FAULTS, { operationOf: kubeOperationOf });
    chaos.setGoneOnResume(1, () => 0);
    const url = await chaos.listen('r');
    const gone = await send(url, '/api/v1/nodes?watch=true&resourceVersion=123');
    expect(JSON.parse(gone.body.trim())).toMatchObject({ type: 'ERROR', object: { kind: 'Status', reason: 'Expired', code: 410 } });
    expect(chaos.faultCounts().gone).toBe(1);
    expect(kubeOperationOf({ method: 'PUT', path: '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/cloud-controller-manager' })).toBe('update leases');
    expect(kubeOperationOf({ method: 'PATCH', path: '/api/v1/nodes/n1/status' })).toBe('patch nodes/status');
    expect(kubeOperationOf({ method: 'GET', path: '/api/v1/namespaces/default/services' })).toBe('list services');
  });

  it('makes the upstream unreachable for a while, then serves again', async () => {
    const chaos = await proxyWith(FaultPlan.none());
    const url = await chaos.listen('r');
    chaos.makeUnreachable(400);
    await expect(send(url, '/x')).rejects.toThrow(/socket hang up|ECONNRESET/);
    await expect(send(url, '/y')).rejects.toThrow(/socket hang up|ECONNRESET/);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await send(url, '/x')).status).toBe(200);
    // One outage, however many requests it refused.
    expect(chaos.faultCounts().unreachable).toBe(1);
  });

  it('injects the same faults for the same seed across two runs', async () => {
    const run = async (seed: number): Promise<Array<string | undefined>> => {
      const chaos = await proxyWith(FaultPlan.uniform(seed, { serverError: 0.3, throttle: 0.2 }));
      const url = await chaos.listen('r');
      for (let index = 0; index < 30; index++) await send(url, `/op-${index % 3}`);
      const faults = chaos.records().map((record) => `${record.operation}:${record.fault ?? '-'}`);
      await proxy!.close();
      proxy = undefined;
      upstream?.closeAllConnections();
      await new Promise<void>((resolve) => upstream!.close(() => resolve()));
      upstream = undefined;
      return faults;
    };
    const first = await run(99);
    expect(await run(99)).toEqual(first);
    expect(await run(100)).not.toEqual(first);
  });

  it('GCE: 503 backendError, 403 and 429 rateLimitExceeded with Retry-After, in Compute\'s error body', async () => {
    const chaos = await proxyWith(FaultPlan.uniform(1, { throttle: 0.5, serverError: 0.5 }), GCE_FAULTS, { retryAfterSeconds: 3 });
    const url = await chaos.listen('r');
    const answers = await Promise.all(Array.from({ length: 12 }, (_, index) => send(url, `/compute/v1/projects/p/zones/z/instances/i${index}`)));
    const errors = answers.map((answer) => ({ status: answer.status, body: JSON.parse(answer.body) as { error: { code: number; errors: Array<{ reason: string; domain: string }> } }, retryAfter: answer.headers['retry-after'] }));
    const backend = errors.filter((answer) => answer.status === 503);
    const throttled = errors.filter((answer) => answer.status === 403 || answer.status === 429);
    expect(backend.length + throttled.length).toBe(12);
    expect(backend.length).toBeGreaterThan(0);
    for (const answer of backend) expect(answer.body.error).toMatchObject({ code: 503, status: 'UNAVAILABLE', errors: [{ reason: 'backendError', domain: 'global' }] });
    for (const answer of throttled) {
      expect(answer.retryAfter).toBe('3');
      expect(answer.body.error).toMatchObject({ code: answer.status, errors: [{ reason: 'rateLimitExceeded', domain: 'usageLimits' }] });
    }
    // Both throttling answers Compute sends come up, one after the other.
    const pair = [GCE_FAULTS.throttle({ method: 'GET', path: '/compute/v1/x', headers: {}, body: '' }, 1).status, GCE_FAULTS.throttle({ method: 'GET', path: '/compute/v1/x', headers: {}, body: '' }, 1).status];
    expect(pair.sort()).toEqual([403, 429]);
    // The token-url answers OAuth errors, as Google's token endpoint does.
    const token = GCE_FAULTS.throttle({ method: 'POST', path: '/token', headers: {}, body: '' }, 2);
    expect(token).toMatchObject({ status: 429, headers: { 'retry-after': '2' } });
    expect(JSON.parse(token.body)).toMatchObject({ error: 'rate_limit_exceeded' });
    expect(JSON.parse(GCE_FAULTS.serverError({ method: 'POST', path: '/token', headers: {}, body: '' }).body)).toMatchObject({ error: 'temporarily_unavailable' });
  });

  it('ARM: 500/503 {"error":{"code","message"}}, 429 TooManyRequests and SubscriptionRequestsThrottled with Retry-After; Entra answers OAuth errors', async () => {
    const request = { method: 'GET', path: '/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines', headers: {}, body: '' };
    const throttles = [ARM_FAULTS.throttle(request, 4), ARM_FAULTS.throttle(request, 4)];
    for (const answer of throttles) expect(answer).toMatchObject({ status: 429, headers: { 'retry-after': '4' } });
    expect(throttles.map((answer) => (JSON.parse(answer.body) as { error: { code: string } }).error.code).sort()).toEqual(['SubscriptionRequestsThrottled', 'TooManyRequests']);
    const errors = [ARM_FAULTS.serverError(request), ARM_FAULTS.serverError(request)];
    expect(errors.map((answer) => answer.status).sort()).toEqual([500, 503]);
    for (const answer of errors) expect(JSON.parse(answer.body)).toEqual({ error: { code: expect.stringMatching(/^(InternalServerError|ServiceUnavailable)$/), message: expect.any(String) } });
    const entra = { method: 'POST', path: '/tenant/oauth2/v2.0/token', headers: {}, body: 'grant_type=client_credentials' };
    expect(JSON.parse(ARM_FAULTS.serverError(entra).body)).toMatchObject({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/^AADSTS/) });
    expect(ARM_FAULTS.throttle(entra, 1)).toMatchObject({ status: 429, headers: { 'retry-after': '1' } });
  });

  it('OpenStack: each service its own fault body (Nova, Neutron, Octavia, Keystone), throttling 429 with Retry-After', () => {
    const at = (path: string) => ({ method: 'GET', path, headers: {}, body: '' });
    expect(JSON.parse(OPENSTACK_FAULTS.serverError(at('/svc/compute/v2.1/servers/detail')).body)).toEqual({ computeFault: { code: 500, message: expect.any(String) } });
    expect(JSON.parse(OPENSTACK_FAULTS.serverError(at('/svc/network/v2.0/ports')).body)).toEqual({ NeutronError: { type: 'HTTPInternalServerError', message: expect.any(String), detail: '' } });
    expect(JSON.parse(OPENSTACK_FAULTS.serverError(at('/svc/load-balancer/v2/lbaas/loadbalancers')).body)).toEqual({ faultcode: 'Server', faultstring: expect.any(String), debuginfo: null });
    expect(JSON.parse(OPENSTACK_FAULTS.serverError(at('/v3/auth/tokens')).body)).toEqual({ error: { code: 500, message: expect.any(String), title: 'Internal Server Error' } });
    for (const path of ['/svc/compute/v2.1/servers', '/svc/network/v2.0/ports', '/svc/load-balancer/v2/lbaas/pools', '/v3/auth/tokens']) {
      expect(OPENSTACK_FAULTS.throttle(at(path), 3), path).toMatchObject({ status: 429, headers: { 'retry-after': '3' } });
    }
    expect(JSON.parse(OPENSTACK_FAULTS.throttle(at('/svc/compute/v2.1/servers'), 3).body)).toEqual({ overLimit: { code: 429, message: expect.any(String), retryAfter: '3' } });
  });

  it('sits in front of an HTTPS upstream with its own CA, and passes the client\'s origin as X-Forwarded-Host', async () => {
    const upstreamCertificate = generateSelfSignedCertificate(['127.0.0.1']);
    const secure = createHttpsServer({ key: upstreamCertificate.privateKeyPem, cert: upstreamCertificate.certificatePem }, (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ forwardedHost: request.headers['x-forwarded-host'], path: request.url }));
    });
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', () => resolve()));
    try {
      proxy = new FaultInjectingProxy({ upstream: `https://127.0.0.1:${(secure.address() as AddressInfo).port}`, upstreamCa: upstreamCertificate.certificatePem, operationOf: byPath, flavor: ARM_FAULTS });
      const url = await proxy.listen('r');
      expect(url.startsWith('https://')).toBe(true);
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        httpsRequest(new URL('/tenant/v2.0/.well-known/openid-configuration', url), { ca: proxy!.certificate, agent: false }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        })
          .on('error', reject)
          .end();
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ forwardedHost: new URL(url).host, path: '/tenant/v2.0/.well-known/openid-configuration' });
    } finally {
      await proxy?.close();
      proxy = undefined;
      secure.closeAllConnections();
      await new Promise<void>((resolve) => secure.close(() => resolve()));
    }
  });
});
