import { request } from 'node:https';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Counter, Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger, type LogFields } from '../../logging/logger.js';
import { HealthChecks } from './health-checks.js';
import { startSecureServer, type RunningSecureServer } from './secure-server.js';
import { generateSelfSignedCertificate } from './self-signed-certificate.js';
import { loadServingCertificate, ServingCertificateError } from './serving-certificate.js';
import { createServingHandler } from './serving-handler.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, options: { method?: string; ca?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', ...(options.ca ? { ca: options.ca, servername: 'localhost' } : { rejectUnauthorized: false }) },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('secure server', () => {
  const certificate = generateSelfSignedCertificate();
  let server: RunningSecureServer | undefined;
  let checks: HealthChecks;
  let registry: Registry;
  let warnings: LogFields[];

  beforeEach(async () => {
    checks = new HealthChecks();
    registry = new Registry();
    warnings = [];
    const logger = { ...silentLogger, warn: (_message: string, fields?: LogFields) => warnings.push(fields ?? {}) };
    server = await startSecureServer({
      bindAddress: '127.0.0.1',
      port: 0,
      certificate,
      handler: createServingHandler({ healthChecks: checks, metrics: registry, configz: () => ({ 'cloudcontrollermanager.config.k8s.io': { Generic: { Controllers: ['*'] } } }), logger }),
    });
  });
  afterEach(async () => {
    await server?.close();
  });
  const port = () => (server as RunningSecureServer).address.port;

  it('serves TLS with the self-signed certificate, valid for localhost', async () => {
    const reply = await get(port(), '/healthz', { ca: certificate.certificatePem });
    expect(reply).toMatchObject({ status: 200, body: 'ok' });
    expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
  });

  it('uses the ping check when no check is registered', async () => {
    expect((await get(port(), '/healthz?verbose')).body).toBe('[+]ping ok\nhealthz check passed\n');
  });

  it('aggregates named checks, withholds failure reasons, supports exclude', async () => {
    checks.add({ name: 'leaderElection', check() {} });
    checks.add({
      name: 'cloud-node-controller',
      check() {
        throw new Error('controller stopped: boom');
      },
    });
    checks.add({ name: 'service-lb-controller', check: async () => undefined });

    const failing = await get(port(), '/healthz');
    expect(failing.status).toBe(500);
    expect(failing.body).toBe('[+]leaderElection ok\n[-]cloud-node-controller failed: reason withheld\n[+]service-lb-controller ok\nhealthz check failed\n');
    expect(warnings).toEqual([{ endpoint: 'healthz', check: 'cloud-node-controller', err: expect.any(Error) }]);

    const excluded = await get(port(), '/healthz?verbose&exclude=cloud-node-controller&exclude=nope');
    expect(excluded.status).toBe(200);
    expect(excluded.body).toBe(
      '[+]leaderElection ok\n[+]cloud-node-controller excluded: ok\n[+]service-lb-controller ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nhealthz check passed\n',
    );
    expect((await get(port(), '/healthz?exclude=cloud-node-controller')).body).toBe('ok');
  });

  it('serves the health check SLIs on /metrics/slis, as component-base slis (kubernetes_healthcheck, kubernetes_healthchecks_total)', async () => {
    checks.add({ name: 'leaderElection', check() {} });
    checks.add({ name: 'cloud-node-controller', check: () => Promise.reject(new Error('stopped')) });
    await get(port(), '/healthz');
    await get(port(), '/healthz?exclude=cloud-node-controller');
    const slis = await get(port(), '/metrics/slis');
    expect(slis.status).toBe(200);
    expect(slis.body).toContain('# TYPE kubernetes_healthcheck gauge');
    expect(slis.body).toContain('kubernetes_healthcheck{name="leaderElection",type="healthz"} 1');
    expect(slis.body).toContain('kubernetes_healthcheck{name="cloud-node-controller",type="healthz"} 0');
    expect(slis.body).toContain('kubernetes_healthchecks_total{name="leaderElection",type="healthz",status="success"} 2');
    // An excluded check is not run, so not observed.
    expect(slis.body).toContain('kubernetes_healthchecks_total{name="cloud-node-controller",type="healthz",status="error"} 1');
    // Separate from /metrics.
    expect((await get(port(), '/metrics')).body).not.toContain('kubernetes_healthcheck');
    // DELETE resets them (upstream SLIMetricsWithReset).
    expect(await get(port(), '/metrics/slis', { method: 'DELETE' })).toMatchObject({ status: 200, body: 'metrics reset\n' });
    expect((await get(port(), '/metrics/slis')).body).not.toContain('leaderElection');
  });

  it('serves /livez and /readyz with the same checks', async () => {
    checks.add({ name: 'x', check: () => Promise.reject(new Error('no')) });
    expect(await get(port(), '/livez')).toMatchObject({ status: 500, body: '[-]x failed: reason withheld\nlivez check failed\n' });
    expect(await get(port(), '/readyz?verbose')).toMatchObject({ status: 500, body: '[-]x failed: reason withheld\nreadyz check failed\n' });
    checks.remove('x');
    expect(await get(port(), '/readyz')).toMatchObject({ status: 200, body: 'ok' });
  });

  it('runs a readiness-only check (informer-sync) on /readyz alone: /healthz and /livez stay upstream\'s', async () => {
    checks.add({ name: 'informer-sync', readinessOnly: true, check: () => Promise.reject(new Error('not synced')) });
    expect(await get(port(), '/readyz?verbose')).toMatchObject({ status: 500, body: '[-]informer-sync failed: reason withheld\nreadyz check failed\n' });
    expect(await get(port(), '/healthz?verbose')).toMatchObject({ status: 200, body: '[+]ping ok\nhealthz check passed\n' });
    expect(await get(port(), '/livez')).toMatchObject({ status: 200, body: 'ok' });
    checks.add({ name: 'leaderElection', check() {} });
    expect(await get(port(), '/healthz?verbose')).toMatchObject({ status: 200, body: '[+]leaderElection ok\nhealthz check passed\n' });
    expect(await get(port(), '/readyz?verbose')).toMatchObject({ status: 500, body: '[-]informer-sync failed: reason withheld\n[+]leaderElection ok\nreadyz check failed\n' });
    checks.remove('informer-sync');
    checks.remove('leaderElection');
  });

  it('serves /metrics in the Prometheus text format', async () => {
    new Counter({ name: 'test_total', help: 'A test counter.', registers: [registry] }).inc(3);
    const reply = await get(port(), '/metrics');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe(registry.contentType);
    expect(reply.body).toContain('# TYPE test_total counter\ntest_total 3');
  });

  it('serves /configz as JSON', async () => {
    const reply = await get(port(), '/configz');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(JSON.parse(reply.body)).toEqual({ 'cloudcontrollermanager.config.k8s.io': { Generic: { Controllers: ['*'] } } });
  });

  it('answers 404 for other paths and 405 for other methods', async () => {
    expect(await get(port(), '/')).toMatchObject({ status: 404, body: '404 page not found\n' });
    // Each check has its own path (serving-endpoints.test.ts); an unknown one is 404.
    expect(await get(port(), '/healthz/no-such-check')).toMatchObject({ status: 404, body: '404 page not found\n' });
    // Without a profiler (--profiling=false) there is no /debug/pprof/.
    expect(await get(port(), '/debug/pprof/')).toMatchObject({ status: 404 });
    expect(await get(port(), '/healthz', { method: 'POST' })).toMatchObject({ status: 405 });
    expect(await get(port(), '/healthz', { method: 'HEAD' })).toMatchObject({ status: 200, body: '' });
  });

  it('listens on every interface for an unspecified bind address', async () => {
    const everywhere = await startSecureServer({ bindAddress: '0.0.0.0', port: 0, certificate, handler: (_request, response) => response.end('ok') });
    try {
      expect(['::', '0.0.0.0']).toContain(everywhere.address.address);
      expect((await get(everywhere.address.port, '/')).body).toBe('ok');
    } finally {
      await everywhere.close();
    }
  });

  it('names the address when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      await expect(startSecureServer({ bindAddress: '127.0.0.1', port: taken, certificate, handler: () => undefined })).rejects.toThrow(
        `cannot serve HTTPS on 127.0.0.1:${taken} (--bind-address, --secure-port): address already in use`,
      );
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});

describe('loadServingCertificate', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'ccm-serving-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('generates in memory without files or cert dir', async () => {
    expect((await loadServingCertificate({ tlsCertFile: '', tlsPrivateKeyFile: '', certDir: '' })).origin).toBe('generated-in-memory');
  });

  it('writes to and then reuses the cert dir', async () => {
    const certDir = join(directory, 'certs');
    const first = await loadServingCertificate({ tlsCertFile: '', tlsPrivateKeyFile: '', certDir });
    expect(first.origin).toBe('generated-in-cert-dir');
    expect(await readFile(join(certDir, 'cloud-controller-manager.crt'), 'utf8')).toBe(first.certificatePem);
    const second = await loadServingCertificate({ tlsCertFile: '', tlsPrivateKeyFile: '', certDir });
    expect(second).toEqual({ ...first, origin: 'cert-dir' });
  });

  it('reads given files and checks that they match', async () => {
    const pair = generateSelfSignedCertificate();
    const other = generateSelfSignedCertificate();
    await writeFile(join(directory, 'tls.crt'), pair.certificatePem);
    await writeFile(join(directory, 'tls.key'), pair.privateKeyPem);
    await writeFile(join(directory, 'other.key'), other.privateKeyPem);
    await writeFile(join(directory, 'junk.crt'), 'not a certificate');
    const tlsCertFile = join(directory, 'tls.crt');
    expect(await loadServingCertificate({ tlsCertFile, tlsPrivateKeyFile: join(directory, 'tls.key'), certDir: '/ignored' })).toEqual({ ...pair, origin: 'files' });
    await expect(loadServingCertificate({ tlsCertFile, tlsPrivateKeyFile: join(directory, 'other.key'), certDir: '' })).rejects.toThrow(
      `the private key ${join(directory, 'other.key')} does not match the certificate ${tlsCertFile}`,
    );
    await expect(loadServingCertificate({ tlsCertFile: join(directory, 'junk.crt'), tlsPrivateKeyFile: join(directory, 'tls.key'), certDir: '' })).rejects.toThrow(
      ServingCertificateError,
    );
    await expect(loadServingCertificate({ tlsCertFile: join(directory, 'missing.crt'), tlsPrivateKeyFile: join(directory, 'tls.key'), certDir: '' })).rejects.toThrow(
      `cannot read the serving certificate ${join(directory, 'missing.crt')}: no such file`,
    );
  });
});
