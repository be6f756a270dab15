// Delegated authentication and authorization of the CCM's secure port against the real
// kube-apiserver: the CCM runs under its own ServiceAccount with the manifests' RBAC and asks the
// API server about every caller (TokenReview, SubjectAccessReview, the client CA and front proxy
// settings of the extension-apiserver-authentication ConfigMap). Fails under CI=true and skips
// loudly elsewhere when the real kube-apiserver cannot be built here, as the conformance suite does.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { issueCertificate, type CertificateAndKey } from '@ccm/core/app';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideWhenUnavailable } from '../conformance/conformance-suite.js';
import { sandboxDriver } from '@ccm/cloud-provider-sandbox/conformance';
import { RealBackend } from '../harness/kube-api-backend.js';
import { KUBE_APISERVER_INSTALL_HINT, realKubeApiServerUnavailableReason, type RealKubeApiServerInfo } from '../harness/real-kube-api-server.js';
import { TestCluster } from '../harness/test-cluster.js';
import { waitFor } from '../harness/wait-for.js';
import { startDelegatedAuthCcm, type DelegatedAuthCcm } from './delegated-auth-ccm.js';
import { createClusterRbac, documentedDebuggingRole, fetchSecurePort, grantDocumentedMetricsReader, serviceAccountToken } from './secure-port-client.js';

const TITLE = 'secure port: delegated authentication and authorization (real kube-apiserver)';
const HOOK_TIMEOUT_MS = 240_000;
const DAY = 86_400_000;

const unavailable = await realKubeApiServerUnavailableReason();
const decision = decideWhenUnavailable(
  { name: 'secure-port delegated-auth', installHint: KUBE_APISERVER_INSTALL_HINT },
  unavailable === undefined ? undefined : `the real kube-apiserver is needed but ${unavailable}`,
);

const forbiddenBody = (user: string, path: string): string =>
  `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \\"${user}\\" cannot get path \\"${path}\\"","reason":"Forbidden","details":{},"code":403}\n`;
const UNAUTHORIZED = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n';

/** PUT with a body on the secure port (the CCM's certificate is self-signed and not verified). */
function putSecurePort(port: number, path: string, token: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path, method: 'PUT', rejectUnauthorized: false, agent: false, headers: { authorization: `Bearer ${token}` } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function clientCertificate(issuer: CertificateAndKey, commonName: string, organizations: string[] = []): CertificateAndKey {
  return issueCertificate({ commonName, organizations, issuer, extendedKeyUsages: ['clientAuth'], notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + DAY) });
}

if (decision.kind === 'fail') {
  describe(TITLE, () => {
    it('has the real kube-apiserver available', () => {
      throw new Error(decision.message);
    });
  });
} else if (decision.kind === 'skip') {
  console.warn(decision.warning);
  describe(TITLE, () => {
    it.skip(`needs the real kube-apiserver: ${decision.warning.split('\n')[1] ?? ''}`, () => undefined);
  });
} else {
  describe(TITLE, { timeout: 60_000 }, () => {
    let cluster: TestCluster;
    let ccm: DelegatedAuthCcm | undefined;
    const port = (): number => (ccm as DelegatedAuthCcm).securePort;
    let info: RealKubeApiServerInfo;
    let clusterClientCa: CertificateAndKey;
    let prometheus: { token: string; user: string };
    let nobodyToken: string;

    beforeAll(async () => {
      await sandboxDriver.start();
      cluster = await TestCluster.start({ kubeApi: 'real', manifestsOverlay: 'sandbox' });
      if (!(cluster.api instanceof RealBackend)) throw new Error('expected the real kube-apiserver');
      info = cluster.api.server.info;
      clusterClientCa = { certificatePem: readFileSync(info.clientCaFile, 'utf8'), privateKeyPem: readFileSync(info.clientCaKeyFile, 'utf8') };
      prometheus = await grantDocumentedMetricsReader(cluster.client);
      nobodyToken = await serviceAccountToken(cluster.client, 'monitoring', 'nobody');
      // A user known only by a client certificate, allowed like Prometheus.
      await createClusterRbac(cluster.client, [
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: 'e2e:certificate-and-proxy-users-read-metrics' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cloud-controller-manager-metrics-reader' },
          subjects: [
            { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'certificate-user' },
            { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'proxied-user' },
          ],
        },
      ]);
      ccm = await startDelegatedAuthCcm(sandboxDriver.ccmProcess(), { label: 'delegated-auth-ccm', kubeconfigPath: cluster.kubeconfigPath });
    }, HOOK_TIMEOUT_MS);

    afterAll(async () => {
      if (ccm !== undefined && process.env['CCM_E2E_SHOW_OUTPUT'] === '1') console.log(ccm.process.report(400));
      await ccm?.stop();
      await cluster?.close();
      await sandboxDriver.stop();
    }, HOOK_TIMEOUT_MS);

    it('serves /healthz and /readyz to anyone', async () => {
      // /readyz fails (informer-sync) until the informers of the replica that won the lease synced;
      // /healthz has upstream's checks only. Wait for both at once.
      const readyz = await waitFor('anonymous /healthz and /readyz to answer 200', async (observe) => {
        const healthz = await fetchSecurePort(port(), '/healthz');
        const ready = await fetchSecurePort(port(), '/readyz?verbose');
        observe({ healthz, ready });
        return healthz.status === 200 && healthz.body === 'ok' && ready.status === 200 ? ready : undefined;
      }, 20_000);
      expect(readyz.body).toContain('readyz check passed');
    });

    it('lets a ServiceAccount with the documented Prometheus RBAC read /metrics (a Prometheus scrape)', async () => {
      const response = await fetchSecurePort(port(), '/metrics', { token: prometheus.token });
      expect(response.status, response.body.slice(0, 300)).toBe(200);
      expect(response.body).toContain('# TYPE running_managed_controllers gauge');
      // The documented role grants /metrics only.
      expect(await fetchSecurePort(port(), '/configz', { token: prometheus.token })).toEqual({
        status: 403,
        contentType: 'application/json',
        body: forbiddenBody(prometheus.user, '/configz'),
      });
    });

    it('forbids a ServiceAccount without such a role (403), and anonymous requests (403)', async () => {
      expect(await fetchSecurePort(port(), '/metrics', { token: nobodyToken })).toEqual({
        status: 403,
        contentType: 'application/json',
        body: forbiddenBody('system:serviceaccount:monitoring:nobody', '/metrics'),
      });
      expect(await fetchSecurePort(port(), '/metrics')).toEqual({ status: 403, contentType: 'application/json', body: forbiddenBody('system:anonymous', '/metrics') });
    });

    it('refuses tokens the cluster does not know with 401, and survives garbage Authorization headers', async () => {
      const forged = `${prometheus.token.slice(0, -8)}AAAAAAAA`;
      for (const token of ['not-a-token', forged, 'a'.repeat(8_000)]) {
        expect(await fetchSecurePort(port(), '/metrics', { token })).toEqual({ status: 401, contentType: 'application/json', body: UNAUTHORIZED });
      }
      expect(await fetchSecurePort(port(), '/healthz', { token: 'not-a-token' })).toMatchObject({ status: 401 });
      for (const value of ['Basic dXNlcjpwYXNz', 'Bearer', '\u00ff\u00fe garbage', 'Negotiate abc']) {
        expect((await fetchSecurePort(port(), '/metrics', { headers: { authorization: value } })).status).toBe(403);
      }
      expect(ccm!.process.isRunning()).toBe(true);
      expect(await fetchSecurePort(port(), '/metrics', { token: prometheus.token })).toMatchObject({ status: 200 });
      const output = ccm!.process.output();
      expect(output).toContain('Unable to authenticate the request');
      expect(output).not.toContain(prometheus.token);
      expect(output).not.toContain(nobodyToken);
      expect(output).not.toContain(forged);
    });

    it("accepts a client certificate signed by the cluster's client CA and refuses one from another CA", async () => {
      const user = clientCertificate(clusterClientCa, 'certificate-user', ['e2e']);
      expect(await fetchSecurePort(port(), '/metrics', { clientCertificate: user })).toMatchObject({ status: 200 });
      expect(await fetchSecurePort(port(), '/configz', { clientCertificate: user })).toMatchObject({ status: 403, body: forbiddenBody('certificate-user', '/configz') });
      const admin = clientCertificate(clusterClientCa, 'e2e-admin', ['system:masters']);
      const configz = await fetchSecurePort(port(), '/configz', { clientCertificate: admin });
      expect(configz.status).toBe(200);
      expect(JSON.parse(configz.body)).toHaveProperty('cloudcontrollermanager.config.k8s.io');
      const otherCa = issueCertificate({ commonName: 'not-the-cluster-ca', certificateAuthority: true, notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + DAY) });
      expect(await fetchSecurePort(port(), '/metrics', { clientCertificate: clientCertificate(otherCa, 'certificate-user') })).toEqual({
        status: 401,
        contentType: 'application/json',
        body: UNAUTHORIZED,
      });
    });

    it('trusts the front proxy (request-header) client of the cluster, with the user in X-Remote-User', async () => {
      const proxy = { certificatePem: readFileSync(info.frontProxyClientCertFile, 'utf8'), privateKeyPem: readFileSync(info.frontProxyClientKeyFile, 'utf8') };
      expect(await fetchSecurePort(port(), '/metrics', { clientCertificate: proxy, headers: { 'x-remote-user': 'proxied-user' } })).toMatchObject({ status: 200 });
      expect(await fetchSecurePort(port(), '/metrics', { clientCertificate: proxy, headers: { 'x-remote-user': 'someone-else' } })).toMatchObject({
        status: 403,
        body: forbiddenBody('someone-else', '/metrics'),
      });
      // A certificate of the front proxy CA with another name may not assert users.
      const frontProxyCa = { certificatePem: readFileSync(info.frontProxyCaFile, 'utf8'), privateKeyPem: readFileSync(info.frontProxyCaKeyFile, 'utf8') };
      const impostor = clientCertificate(frontProxyCa, 'not-the-front-proxy');
      expect(await fetchSecurePort(port(), '/metrics', { clientCertificate: impostor, headers: { 'x-remote-user': 'proxied-user' } })).toMatchObject({ status: 401 });
    });

    it('changes the running verbosity and serves profiles to a caller with the documented debugging role only, as upstream authorizes them', async () => {
      const role = documentedDebuggingRole();
      const debuggerToken = await serviceAccountToken(cluster.client, 'monitoring', 'debugger');
      await createClusterRbac(cluster.client, [
        role,
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: 'e2e:debugger' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role.metadata.name },
          subjects: [{ kind: 'ServiceAccount', name: 'debugger', namespace: 'monitoring' }],
        },
      ]);
      const forbidden = await putSecurePort(port(), '/debug/flags/v', nobodyToken, '6');
      expect(forbidden.status).toBe(403);
      expect(forbidden.body).toContain('forbidden: User \\"system:serviceaccount:monitoring:nobody\\" cannot put path \\"/debug/flags/v\\"');
      // The role's grant reaches the CCM once the API server's RBAC cache has it.
      await cluster.waitFor('the debugging role to allow PUT /debug/flags/v', async (observe) => {
        const response = await putSecurePort(port(), '/debug/flags/v', debuggerToken, '6');
        observe(`${response.status}: ${response.body}`);
        return response.status === 200 && response.body === 'successfully set klog.logging.verbosity to 6\n';
      });
      expect(await fetchSecurePort(port(), '/debug/flags/v', { token: debuggerToken })).toMatchObject({ status: 200, body: '6\n' });
      const heap = await fetchSecurePort(port(), '/debug/pprof/heap', { token: debuggerToken });
      expect(heap.status).toBe(200);
      expect(JSON.parse(heap.body)).toHaveProperty('head');
      expect(await fetchSecurePort(port(), '/debug/pprof/heap', { token: nobodyToken })).toMatchObject({ status: 403 });
      // The always-allow paths are exact: a single check needs authorization.
      expect(await fetchSecurePort(port(), '/healthz/leaderElection')).toMatchObject({ status: 403 });
      // Put the verbosity back for the other tests.
      expect(await putSecurePort(port(), '/debug/flags/v', debuggerToken, '2')).toMatchObject({ status: 200 });
    });

    it('picks up a new client CA from the ConfigMap without a restart', async () => {
      const newCa = issueCertificate({ commonName: 'rotated-client-ca', certificateAuthority: true, notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + DAY) });
      const user = clientCertificate(newCa, 'certificate-user');
      expect(await fetchSecurePort(port(), '/metrics', { clientCertificate: user })).toMatchObject({ status: 401 });
      const path = '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication';
      const configMap = await cluster.client.request<{ data: Record<string, string> }>('GET', path);
      const bundle = `${(configMap.data['client-ca-file'] ?? '').trimEnd()}\n${newCa.certificatePem}`;
      await cluster.client.request('PATCH', path, { data: { 'client-ca-file': bundle } }, 'application/merge-patch+json');
      await cluster.waitFor('the CCM to accept a certificate of the added client CA', async (observe) => {
        const response = await fetchSecurePort(port(), '/metrics', { clientCertificate: user });
        observe(response.status);
        return response.status === 200;
      });
      expect(ccm!.process.isRunning()).toBe(true);
    });
  });
}
