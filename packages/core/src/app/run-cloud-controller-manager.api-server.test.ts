/**
 * Startup against an API server that cannot be reached: the command fails after a bounded wait
 * (upstream `WaitForAPIServer`), and `/healthz` reports the wait meanwhile.
 */
import { request } from 'node:https';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CapturedOutput, TempDirectory, createTestRegistry, freePort, waitFor } from './test-support/command-harness.js';
import { runCloudControllerManager } from './run-cloud-controller-manager.js';
import { Registry } from 'prom-client';

function probe(port: number, path: '/healthz?verbose' | '/readyz?verbose'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path, rejectUnauthorized: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('runCloudControllerManager: unreachable API server', () => {
  const directory = new TempDirectory();
  beforeEach(() => directory.create());
  afterEach(() => directory.remove());

  it('exits 1 naming the server when the informers cannot reach it in time; /readyz fails meanwhile, /healthz stays ok', async () => {
    const deadPort = await freePort();
    const server = `https://127.0.0.1:${deadPort}`;
    const kubeconfig = await directory.write(
      'kubeconfig',
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: dead',
        '  cluster:',
        `    server: ${server}`,
        '    insecure-skip-tls-verify: true',
        'users:',
        '- name: u',
        '  user: {token: not-a-real-token}',
        'contexts:',
        '- name: c',
        '  context: {cluster: dead, user: u}',
        'current-context: c',
        '',
      ].join('\n'),
    );
    const servingPort = await freePort();
    const stderr = new CapturedOutput();
    const startedAt = Date.now();
    const exit = runCloudControllerManager({
      commandName: 'test-ccm',
      registry: createTestRegistry(),
      argv: ['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, '--leader-elect=false', '--bind-address=127.0.0.1', `--secure-port=${servingPort}`],
      env: {},
      stdout: new CapturedOutput(),
      stderr,
      handleSignals: false,
      metrics: new Registry(),
      shutdownTimeoutMs: 1_000,
      apiServerWaitTimeoutMs: 1_500,
    });
    // Readiness only: /readyz fails while the caches cannot sync, /healthz stays upstream's (ping).
    let healthzMeanwhile: { status: number; body: string } | undefined;
    await waitFor(async () => {
      const response = await probe(servingPort, '/readyz?verbose').catch(() => undefined);
      if (!(response?.status === 500 && response.body.includes('[-]informer-sync failed'))) return false;
      healthzMeanwhile = await probe(servingPort, '/healthz?verbose');
      return true;
    }, 'the informer-sync readiness check to fail');
    expect(healthzMeanwhile).toEqual({ status: 200, body: '[+]ping ok\nhealthz check passed\n' });
    expect(await exit).toBe(1);
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(stderr.text).toMatch(new RegExp(`error: cannot reach the Kubernetes API server at ${server.replace(/[.]/g, '\\.')}: .*ECONNREFUSED`));
    expect(stderr.text).toContain('Listing failed, retrying');
  });
});
