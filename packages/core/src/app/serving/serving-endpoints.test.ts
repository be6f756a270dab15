// The secure port's per-check health paths, /debug/flags/v and /debug/pprof/ (handler level,
// behind a real HTTPS server; authorization is tested in delegated-auth/create-delegated-auth.test.ts).
import { request } from 'node:https';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logging/create-logger.js';
import { HealthChecks } from './health-checks.js';
import { profileSeconds, startProfiler, type Profiler } from './profiler.js';
import { startSecureServer, type RunningSecureServer } from './secure-server.js';
import { generateSelfSignedCertificate } from './self-signed-certificate.js';
import { createServingHandler } from './serving-handler.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function call(port: number, path: string, options: { method?: string; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', rejectUnauthorized: false, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

const certificate = generateSelfSignedCertificate();
const logLines: string[] = [];
const logger = createLogger({ destination: { write: (line) => logLines.push(line) }, verbosity: 1 });

describe('with --profiling', () => {
  let server: RunningSecureServer;
  let profiler: Profiler;
  const checks = new HealthChecks();
  checks.add({ name: 'leaderElection', check() {} });
  checks.add({ name: 'cloud-node-controller', check: () => Promise.reject(new Error('controller stopped: boom')) });
  checks.add({ name: 'informer-sync', readinessOnly: true, check() {} });

  beforeAll(async () => {
    profiler = await startProfiler();
    server = await startSecureServer({
      bindAddress: '127.0.0.1',
      port: 0,
      certificate,
      handler: createServingHandler({ healthChecks: checks, metrics: new Registry(), configz: () => ({}), logger, verbosity: logger, profiler }),
    });
  });
  afterAll(async () => {
    await server.close();
    await profiler.close();
  });
  const port = () => server.address.port;

  it('serves each check at /healthz/<name>, /livez/<name> and /readyz/<name> as upstream adaptCheckToHandler', async () => {
    expect(await call(port(), '/healthz/leaderElection')).toMatchObject({ status: 200, body: 'ok' });
    expect(await call(port(), '/livez/leaderElection?verbose')).toMatchObject({ status: 200, body: 'ok' });
    expect(await call(port(), '/healthz/cloud-node-controller')).toMatchObject({ status: 500, body: 'internal server error: controller stopped: boom\n' });
    expect(await call(port(), '/readyz/informer-sync')).toMatchObject({ status: 200, body: 'ok' });
    // A readiness-only check is not one of /healthz's; unknown names are 404.
    expect(await call(port(), '/healthz/informer-sync')).toMatchObject({ status: 404, body: '404 page not found\n' });
    expect(await call(port(), '/healthz/nope')).toMatchObject({ status: 404 });
    expect(await call(port(), '/healthz/leaderElection', { method: 'POST' })).toMatchObject({ status: 405 });
    // The aggregate still withholds the reason.
    expect((await call(port(), '/healthz?verbose')).body).toBe('[+]leaderElection ok\n[-]cloud-node-controller failed: reason withheld\nhealthz check failed\n');
  });

  it('reads and sets the running verbosity at /debug/flags/v', async () => {
    logger.setVerbosity(1);
    expect(await call(port(), '/debug/flags/v')).toMatchObject({ status: 200, body: '1\n' });
    logLines.length = 0;
    logger.verbose(3, 'hidden');
    const set = await call(port(), '/debug/flags/v', { method: 'PUT', body: '3' });
    expect(set).toMatchObject({ status: 200, body: 'successfully set klog.logging.verbosity to 3\n' });
    expect(set.headers['content-type']).toBe('text/plain');
    expect(logger.verbosity()).toBe(3);
    logger.verbose(3, 'shown');
    expect(logLines.map((line) => line.slice(line.indexOf('] ') + 2))).toEqual(['"shown"\n']);
    expect(await call(port(), '/debug/flags/v', { method: 'PUT', body: 'abc' })).toMatchObject({
      status: 400,
      body: 'failed set klog.logging.verbosity abc: strconv.ParseInt: parsing "abc": invalid syntax\n',
    });
    expect(await call(port(), '/debug/flags/v', { method: 'PUT', body: '3\n' })).toMatchObject({ status: 400 });
    expect(await call(port(), '/debug/flags/v', { method: 'PUT', body: '99999999999' })).toMatchObject({
      status: 400,
      body: 'failed set klog.logging.verbosity 99999999999: strconv.ParseInt: parsing "99999999999": value out of range\n',
    });
    expect(await call(port(), '/debug/flags/v', { method: 'POST', body: '2' })).toMatchObject({ status: 406, body: 'unsupported http method\n' });
    expect(logger.verbosity()).toBe(3);
    expect((await call(port(), '/debug/flags/')).body).toContain('<tr>v<br>');
    logger.setVerbosity(1);
  });

  it('serves a CPU profile of ?seconds=N and the sampled heap profile under /debug/pprof/', async () => {
    expect((await call(port(), '/debug/pprof/')).body).toContain('profile: a CPU profile');
    expect(await call(port(), '/debug/pprof')).toMatchObject({ status: 301, headers: { location: '/debug/pprof/' } });
    const started = Date.now();
    // The second request arrives while the first (2 s) still runs, even on a busy machine.
    const [cpu, concurrent] = await Promise.all([call(port(), '/debug/pprof/profile?seconds=2'), delay(300).then(() => call(port(), '/debug/pprof/profile?seconds=1'))]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(cpu.status).toBe(200);
    expect(cpu.headers['content-disposition']).toBe('attachment; filename="profile.cpuprofile"');
    const profile = JSON.parse(cpu.body) as { nodes: Array<{ callFrame: { functionName: string } }>; startTime: number; endTime: number };
    expect(profile.nodes.length).toBeGreaterThan(0);
    expect(profile.endTime - profile.startTime).toBeGreaterThanOrEqual(1_900_000);
    expect(concurrent).toMatchObject({ status: 500, body: 'Could not enable CPU profiling: cpu profiling already in use\n' });
    const heap = await call(port(), '/debug/pprof/heap');
    expect(heap.status).toBe(200);
    const heapProfile = JSON.parse(heap.body) as { head: { callFrame: unknown; children: unknown[] }; samples: unknown[] };
    expect(heapProfile.head.children.length).toBeGreaterThan(0);
    expect(await call(port(), '/debug/pprof/goroutine')).toMatchObject({ status: 404, body: 'Unknown profile: Node.js has no goroutines\n' });
  });
});

describe('profileSeconds (Go pprof: anything but a positive integer is 30)', () => {
  it.each([
    [null, 30],
    ['', 30],
    ['abc', 30],
    ['0', 30],
    ['-5', 30],
    ['1.5', 30],
    ['7', 7],
    ['+7', 7],
  ])('%j -> %d', (value, seconds) => {
    expect(profileSeconds(value)).toBe(seconds);
  });
});

describe('without --profiling', () => {
  it('serves neither /debug/pprof/ nor /debug/flags/v (upstream registers them with profiling only)', async () => {
    const server = await startSecureServer({
      bindAddress: '127.0.0.1',
      port: 0,
      certificate,
      handler: createServingHandler({ healthChecks: new HealthChecks(), metrics: new Registry(), configz: () => ({}), logger }),
    });
    try {
      expect(await call(server.address.port, '/debug/pprof/heap')).toMatchObject({ status: 404 });
      expect(await call(server.address.port, '/debug/flags/v', { method: 'PUT', body: '5' })).toMatchObject({ status: 404 });
      expect(await call(server.address.port, '/healthz/ping')).toMatchObject({ status: 200, body: 'ok' });
    } finally {
      await server.close();
    }
  });
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
