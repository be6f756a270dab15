// The real kube-apiserver launcher: TLS, RBAC for ServiceAccount tokens, the audit log, the
// workspace bin, and that nothing it writes leaks out of its temporary folder or its output.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideWhenUnavailable } from '../conformance/conformance-suite.js';
import { RealBackend } from './kube-api-backend.js';
import { KubeRequestError, KubeTestClient } from './kube-test-client.js';
import { CCM_USER, readAuditLog } from './rbac-usage.js';
import { KUBE_APISERVER_INSTALL_HINT, realKubeApiServerUnavailableReason, RealKubeApiServer } from './real-kube-api-server.js';

const reason = await realKubeApiServerUnavailableReason();
const decision = decideWhenUnavailable({ name: 'real kube-apiserver', installHint: KUBE_APISERVER_INSTALL_HINT }, reason);
const binScript = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'bin', 'kube-apiserver-for-tests.js');

if (decision.kind === 'fail') {
  describe('real kube-apiserver launcher', () => {
    it('can build and start the real kube-apiserver', () => {
      throw new Error(decision.message);
    });
  });
} else if (decision.kind === 'skip') {
  console.warn(decision.warning);
  describe('real kube-apiserver launcher', () => {
    it.skip(`needs Go: ${reason}`, () => undefined);
  });
} else {
  describe('real kube-apiserver launcher', () => {
    let backend: RealBackend;
    let ccm: KubeTestClient;

    beforeAll(async () => {
      backend = await RealBackend.start({ manifestsOverlay: 'sandbox' });
      const kubeconfig = join(backend.server.directory, 'ccm.kubeconfig');
      await backend.writeCcmKubeconfig(kubeconfig);
      const text = readFileSync(kubeconfig, 'utf8');
      const token = /token: (\S+)/.exec(text)![1]!;
      ccm = new KubeTestClient(backend.server.adminUrl);
      // A client with the CCM's token straight to the TLS port (no admin proxy).
      ccm = tokenClient(backend.server.server, token, backend.server.servingCa());
    }, 180_000);

    afterAll(async () => {
      await backend?.close();
    }, 60_000);

    it('serves TLS on 127.0.0.1 and the admin proxy has full rights', async () => {
      expect(backend.server.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const admin = new KubeTestClient(backend.server.adminUrl);
      const namespaces = await admin.request<{ items: Array<{ metadata: { name: string } }> }>('GET', '/api/v1/namespaces');
      expect(namespaces.items.map((namespace) => namespace.metadata.name)).toEqual(expect.arrayContaining(['default', 'kube-system']));
    });

    it("the CCM's ServiceAccount token gets exactly the manifests' RBAC: nodes yes, secrets no", async () => {
      await expect(ccm.request('GET', '/api/v1/nodes')).resolves.toBeDefined();
      const error = await ccm.request('GET', '/api/v1/namespaces/kube-system/secrets').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(KubeRequestError);
      expect((error as KubeRequestError).status).toBe(403);
    });

    it('audits every request of the CCM ServiceAccount, the 403 included', async () => {
      const events = await readAuditLog(backend.server.auditLogPath!);
      const ccmEvents = events.filter((event) => event.user.username === CCM_USER);
      expect(ccmEvents.some((event) => event.verb === 'list' && event.objectRef?.resource === 'nodes' && event.responseStatus?.code === 200)).toBe(true);
      expect(ccmEvents.some((event) => event.objectRef?.resource === 'secrets' && event.responseStatus?.code === 403)).toBe(true);
      expect(events.every((event) => event.user.username === CCM_USER), 'only the CCM user is audited').toBe(true);
    });

    it('keeps keys, kubeconfig and audit log in its temporary folder, and removes it on close', async () => {
      const server = await RealKubeApiServer.start({ auditLog: false });
      const directory = server.directory;
      expect(server.adminKubeconfigPath.startsWith(directory)).toBe(true);
      for (const file of Object.values(server.info).filter((value) => value.startsWith('/'))) expect(file.startsWith(tmpdir())).toBe(true);
      await server.close();
      expect(existsSync(directory)).toBe(false);
    }, 120_000);
  });

  describe('kube-apiserver-for-tests (workspace bin)', () => {
    it('prints one JSON line without secrets, serves, and exits 0 on SIGTERM', async () => {
      const directory = await mkdtemp(join(tmpdir(), 'kube-apiserver-bin-'));
      try {
        const kubeconfig = join(directory, 'admin.kubeconfig');
        const child = spawn(process.execPath, [binScript, '--port', '0', '--kubeconfig', kubeconfig, '--audit-log', join(directory, 'audit.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
        child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
        const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        const deadline = Date.now() + 120_000;
        while (!stdout.includes('\n') && Date.now() < deadline && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
        const line = JSON.parse(stdout.trim()) as { server: string; kubeconfig: string; infoFile: string };
        expect(line.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
        expect(line.kubeconfig).toBe(kubeconfig);
        const keyData = /client-key-data: (\S+)/.exec(readFileSync(kubeconfig, 'utf8'))![1]!;
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(stdout).not.toContain(keyData);
        expect(stderr).not.toContain(keyData);
        expect(stdout).not.toMatch(/PRIVATE KEY/);
        expect(stderr).not.toMatch(/PRIVATE KEY|eyJhbGci/);
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    }, 180_000);
  });
}

/** A test client that calls the API server directly with a bearer token over TLS. */
function tokenClient(server: string, token: string, ca: string): KubeTestClient {
  return KubeTestClient.withTls(server, { token, ca });
}
