// Start-up with a bad or unreachable --authentication-kubeconfig, as a real child process: with
// --authentication-tolerate-lookup-failure=false the CCM exits 1 with one readable error line;
// with true it starts, serves /healthz and logs the failed lookup once. The main API server is
// @ccm/kube-emulator: none of this needs the real kube-apiserver.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxDriver } from '@ccm/cloud-provider-sandbox/conformance';
import { findFreePort } from '../harness/free-port.js';
import { TestCluster } from '../harness/test-cluster.js';
import { waitFor } from '../harness/wait-for.js';
import { startDelegatedAuthCcm } from './delegated-auth-ccm.js';
import { fetchSecurePort } from './secure-port-client.js';

describe('secure port start-up with a bad authentication kubeconfig', { timeout: 60_000 }, () => {
  let cluster: TestCluster;
  let unreachableKubeconfig: string;

  beforeAll(async () => {
    await sandboxDriver.start();
    cluster = await TestCluster.start({ kubeApi: 'emulator' });
    const closedPort = await findFreePort();
    unreachableKubeconfig = join(cluster.directory, 'unreachable.kubeconfig');
    await writeFile(
      unreachableKubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: gone, cluster: {server: "https://127.0.0.1:' + closedPort + '", insecure-skip-tls-verify: true}}]',
        'users: [{name: someone, user: {token: not-used-because-unreachable}}]',
        'contexts: [{name: gone, context: {cluster: gone, user: someone}}]',
        'current-context: gone',
        '',
      ].join('\n'),
    );
  }, 120_000);

  afterAll(async () => {
    await cluster?.close();
    await sandboxDriver.stop();
  }, 120_000);

  const errorLines = (output: string): string[] => output.split('\n').filter((line) => line.startsWith('error:'));

  it('exits 1 with one line naming the file when the kubeconfig cannot be read', async () => {
    const missing = join(cluster.directory, 'no-such.kubeconfig');
    const ccm = await startDelegatedAuthCcm(sandboxDriver.ccmProcess(), {
      label: 'missing-authn-kubeconfig',
      kubeconfigPath: cluster.kubeconfigPath,
      extraFlags: [`--authentication-kubeconfig=${missing}`],
      waitUntilHealthy: false,
    });
    expect(await ccm.process.waitForExit()).toEqual({ code: 1, signal: null });
    expect(errorLines(ccm.process.output())).toEqual([`error: failed to get delegated authentication kubeconfig (--authentication-kubeconfig): cannot read kubeconfig ${missing}: no such file`]);
    expect(ccm.process.output()).not.toMatch(/\n\s+at /);
  });

  it('exits 1 with one line when the cluster is unreachable and lookup failures are not tolerated', async () => {
    const ccm = await startDelegatedAuthCcm(sandboxDriver.ccmProcess(), {
      label: 'unreachable-authn',
      kubeconfigPath: cluster.kubeconfigPath,
      extraFlags: [`--authentication-kubeconfig=${unreachableKubeconfig}`],
      waitUntilHealthy: false,
    });
    expect(await ccm.process.waitForExit()).toEqual({ code: 1, signal: null });
    const lines = errorLines(ccm.process.output());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: unable to load configmap based request-header-client-ca-file \(configmap\/extension-apiserver-authentication in kube-system\): .*ECONNREFUSED/);
  });

  it('starts and logs the failed lookup once with --authentication-tolerate-lookup-failure=true', async () => {
    const ccm = await startDelegatedAuthCcm(sandboxDriver.ccmProcess(), {
      label: 'unreachable-authn-tolerated',
      kubeconfigPath: cluster.kubeconfigPath,
      extraFlags: [`--authentication-kubeconfig=${unreachableKubeconfig}`, '--authentication-tolerate-lookup-failure=true'],
    });
    try {
      // Wait for the port to serve (informer-sync is a /readyz-only check, so /healthz does not flap).
      await waitFor('/healthz to answer 200', async (observe) => {
        const response = await fetchSecurePort(ccm.securePort, '/healthz');
        observe(response);
        return response.status === 200;
      }, 20_000);
      // Tokens cannot be reviewed (the cluster is unreachable): never served, never a crash.
      expect((await fetchSecurePort(ccm.securePort, '/metrics', { token: 'some-token' })).status).toBe(401);
      const output = ccm.process.output();
      expect(output.split('\n').filter((line) => line.includes('Error looking up in-cluster authentication configuration'))).toHaveLength(1);
      expect(output).not.toContain('some-token');
      expect(ccm.process.isRunning()).toBe(true);
    } finally {
      await ccm.stop();
    }
  });
});
