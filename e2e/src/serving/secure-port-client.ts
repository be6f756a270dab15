/**
 * Requests to a CCM's secure port as its real clients make them: Prometheus with a bearer token,
 * an operator with a client certificate, the aggregator (front proxy) with a client certificate
 * and `X-Remote-*` headers, or nobody at all. The CCM's serving certificate is self-signed, so it
 * is not verified (a test talking to a process it started).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { KubeTestClient } from '../harness/kube-test-client.js';

export { fetchSecurePort, type SecurePortRequest, type SecurePortResponse } from '../harness/ccm-endpoints.js';

/** The flags that make a CCM started outside a pod use the cluster for delegated auth, with upstream's always-allow paths. */
export function delegatedAuthFlags(kubeconfigPath: string): string[] {
  return [`--authentication-kubeconfig=${kubeconfigPath}`, `--authorization-kubeconfig=${kubeconfigPath}`, '--authorization-always-allow-paths=/healthz,/readyz,/livez'];
}

export const TROUBLESHOOTING_DOC = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'troubleshooting.md');
const PROMETHEUS_SECTION = '### Scraping `/metrics` with Prometheus';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  subjects?: Array<{ apiGroup?: string; kind: string; name: string; namespace?: string }>;
  [field: string]: unknown;
}

/** The RBAC objects docs/troubleshooting.md tells operators to apply for Prometheus (its first yaml block). */
export function documentedPrometheusRbac(markdown = readFileSync(TROUBLESHOOTING_DOC, 'utf8')): KubeObject[] {
  return documentedYaml(markdown, PROMETHEUS_SECTION);
}

const DEBUGGING_SECTION = '### Changing the verbosity at run time';

/** The ClusterRole docs/troubleshooting.md gives for `/debug/flags/v` and `/debug/pprof/` (the first yaml block of its section). */
export function documentedDebuggingRole(markdown = readFileSync(TROUBLESHOOTING_DOC, 'utf8')): KubeObject {
  const objects = documentedYaml(markdown, DEBUGGING_SECTION);
  if (objects.length !== 1 || objects[0]?.kind !== 'ClusterRole') throw new Error(`the "${DEBUGGING_SECTION}" section of docs/troubleshooting.md should give one ClusterRole`);
  return objects[0];
}

function documentedYaml(markdown: string, section: string): KubeObject[] {
  const start = markdown.indexOf(section);
  if (start < 0) throw new Error(`docs/troubleshooting.md has no "${section}" section`);
  const block = /```yaml\n([\s\S]*?)```/.exec(markdown.slice(start));
  if (block?.[1] === undefined) throw new Error(`the "${section}" section of docs/troubleshooting.md has no yaml block`);
  return parseAllDocuments(block[1]).map((document) => document.toJSON() as KubeObject);
}

const RBAC_COLLECTIONS: Record<string, string> = {
  ClusterRole: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
  ClusterRoleBinding: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
};

/** Creates objects of the documented kinds (ClusterRoles and ClusterRoleBindings) with the admin client. */
export async function createClusterRbac(admin: KubeTestClient, objects: readonly KubeObject[]): Promise<void> {
  for (const object of objects) {
    const collection = RBAC_COLLECTIONS[object.kind];
    if (collection === undefined) throw new Error(`createClusterRbac: unexpected kind ${object.kind}`);
    await admin.request('POST', collection, object);
  }
}

/** A ServiceAccount (its namespace created if needed) and a token for it. */
export async function serviceAccountToken(admin: KubeTestClient, namespace: string, name: string): Promise<string> {
  await admin.ensureNamespace(namespace);
  await admin.request('POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } });
  return admin.requestServiceAccountToken(namespace, name, 3_600);
}

/**
 * The documented Prometheus RBAC applied, and a token of the ServiceAccount it binds
 * (`monitoring/prometheus` in the docs): what a scrape sends.
 */
export async function grantDocumentedMetricsReader(admin: KubeTestClient): Promise<{ token: string; user: string }> {
  const objects = documentedPrometheusRbac();
  const subject = objects.flatMap((object) => object.subjects ?? []).find((candidate) => candidate.kind === 'ServiceAccount');
  if (subject?.namespace === undefined) throw new Error('the documented Prometheus RBAC binds no ServiceAccount');
  const token = await serviceAccountToken(admin, subject.namespace, subject.name);
  await createClusterRbac(admin, objects);
  return { token, user: `system:serviceaccount:${subject.namespace}:${subject.name}` };
}
