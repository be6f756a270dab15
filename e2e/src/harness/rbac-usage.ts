import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

const execFileAsync = promisify(execFile);

export const MANIFESTS_DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'manifests');
export const CCM_SERVICE_ACCOUNT = { namespace: 'kube-system', name: 'cloud-controller-manager' } as const;
export const CCM_USER = `system:serviceaccount:${CCM_SERVICE_ACCOUNT.namespace}:${CCM_SERVICE_ACCOUNT.name}`;

/** One RBAC policy rule, with the Role or ClusterRole it belongs to. */
export interface BoundRule {
  /** `ClusterRole/<name>` or `Role/<namespace>/<name>`. */
  role: string;
  apiGroups: string[];
  resources: string[];
  verbs: string[];
  resourceNames?: string[];
}

/** The part of an audit.k8s.io/v1 Event the analysis reads. */
export interface AuditEvent {
  verb: string;
  requestURI: string;
  user: { username: string };
  objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string; apiGroup?: string };
  responseStatus?: { code?: number };
}

export interface RbacUsage {
  /** Requests of the CCM answered 403. */
  forbidden: AuditEvent[];
  /** `role: verb group/resource[names]` for every verb of a rule that no request used. */
  unused: string[];
  /** How many audited CCM requests were analysed. */
  requests: number;
}

/** The rendered text of each overlay, once per process (the manifests do not change during a test run). */
const renderedOverlays = new Map<string, Promise<string>>();

/**
 * `kubectl kustomize manifests/<overlay>`: every object the overlay renders (fresh objects on every
 * call; kubectl runs once per overlay and process, since a conformance suite starts an API server
 * per scenario group).
 */
export async function renderOverlay(overlay: string): Promise<Array<Record<string, unknown>>> {
  let rendered = renderedOverlays.get(overlay);
  if (rendered === undefined) {
    rendered = execFileAsync('kubectl', ['kustomize', join(MANIFESTS_DIRECTORY, overlay)], { maxBuffer: 16 * 1024 * 1024 }).then(({ stdout }) => stdout);
    renderedOverlays.set(overlay, rendered);
    rendered.catch(() => renderedOverlays.delete(overlay));
  }
  return parseAllDocuments(await rendered)
    .map((document) => document.toJSON() as Record<string, unknown> | null)
    .filter((object): object is Record<string, unknown> => object !== null);
}

/** `kubectl apply -k manifests/<overlay>` with the admin kubeconfig. */
export async function applyOverlay(adminKubeconfigPath: string, overlay: string): Promise<void> {
  await execFileAsync('kubectl', ['--kubeconfig', adminKubeconfigPath, 'apply', '-k', join(MANIFESTS_DIRECTORY, overlay)], { maxBuffer: 16 * 1024 * 1024 });
}

interface RoleObject {
  kind: string;
  metadata: { name: string; namespace?: string };
  rules?: Array<{ apiGroups?: string[]; resources?: string[]; verbs: string[]; resourceNames?: string[] }>;
  roleRef?: { kind: string; name: string };
  subjects?: Array<{ kind: string; name: string; namespace?: string }>;
}

/** The rules of the Roles and ClusterRoles that the rendered objects bind to the CCM's ServiceAccount. */
export function rulesBoundToServiceAccount(objects: Array<Record<string, unknown>>): BoundRule[] {
  const typed = objects as unknown as RoleObject[];
  const roles = new Map<string, RoleObject>();
  for (const object of typed) {
    if (object.kind === 'ClusterRole') roles.set(`ClusterRole/${object.metadata.name}`, object);
    if (object.kind === 'Role') roles.set(`Role/${object.metadata.namespace ?? 'default'}/${object.metadata.name}`, object);
  }
  const bound: BoundRule[] = [];
  for (const binding of typed) {
    if (binding.kind !== 'ClusterRoleBinding' && binding.kind !== 'RoleBinding') continue;
    const forCcm = (binding.subjects ?? []).some(
      (subject) => subject.kind === 'ServiceAccount' && subject.name === CCM_SERVICE_ACCOUNT.name && subject.namespace === CCM_SERVICE_ACCOUNT.namespace,
    );
    if (!forCcm || binding.roleRef === undefined) continue;
    const key = binding.roleRef.kind === 'ClusterRole' ? `ClusterRole/${binding.roleRef.name}` : `Role/${binding.metadata.namespace ?? 'default'}/${binding.roleRef.name}`;
    const role = roles.get(key);
    if (role === undefined) continue; // a built-in role, not ours to judge
    for (const rule of role.rules ?? []) {
      bound.push({ role: key, apiGroups: rule.apiGroups ?? [], resources: rule.resources ?? [], verbs: rule.verbs, ...(rule.resourceNames ? { resourceNames: rule.resourceNames } : {}) });
    }
  }
  return bound;
}

/** Reads an audit log (JSON lines). */
export async function readAuditLog(path: string): Promise<AuditEvent[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AuditEvent);
}

function matches(rule: BoundRule, verb: string, event: AuditEvent): boolean {
  const reference = event.objectRef;
  if (reference?.resource === undefined) return false;
  if (!rule.verbs.includes(verb) && !rule.verbs.includes('*')) return false;
  const group = reference.apiGroup ?? '';
  if (!rule.apiGroups.includes(group) && !rule.apiGroups.includes('*')) return false;
  const resource = reference.subresource ? `${reference.resource}/${reference.subresource}` : reference.resource;
  if (!rule.resources.includes(resource) && !rule.resources.includes('*')) return false;
  if (rule.resourceNames !== undefined && rule.resourceNames.length > 0) {
    if (reference.name === undefined || !rule.resourceNames.includes(reference.name)) return false;
  }
  if (rule.role.startsWith('Role/')) {
    const namespace = rule.role.split('/')[1];
    if (reference.namespace !== namespace) return false;
  }
  return true;
}

/** `Role/kube-system/x: get coordination.k8s.io/leases[cloud-controller-manager]` */
export function describeRuleVerb(rule: BoundRule, verb: string): string {
  const names = rule.resourceNames && rule.resourceNames.length > 0 ? `[${rule.resourceNames.join(',')}]` : '';
  const groups = rule.apiGroups.map((group) => (group === '' ? 'core' : group)).join(',');
  return `${rule.role}: ${verb} ${groups}/${rule.resources.join(',')}${names}`;
}

/**
 * What the CCM's audited requests say about its RBAC: every 403 answer, and every verb of a
 * bound rule that no request needed (a candidate for removal, or a line in docs/rbac.md).
 */
export function analyseRbacUsage(rules: BoundRule[], events: AuditEvent[], user = CCM_USER): RbacUsage {
  const ccmEvents = events.filter((event) => event.user?.username === user);
  const forbidden = ccmEvents.filter((event) => event.responseStatus?.code === 403);
  const allowed = ccmEvents.filter((event) => event.responseStatus?.code !== 403);
  const unused: string[] = [];
  for (const rule of rules) {
    for (const verb of rule.verbs) {
      if (!allowed.some((event) => event.verb === verb && matches(rule, verb, event))) unused.push(describeRuleVerb(rule, verb));
    }
  }
  return { forbidden, unused, requests: ccmEvents.length };
}

/** Collects RBAC usage over a whole suite (one API server per scenario group). */
export class RbacUsageCollector {
  private readonly events: AuditEvent[] = [];
  private rules: BoundRule[] | undefined;

  add(rules: BoundRule[], events: AuditEvent[]): void {
    this.rules ??= rules;
    this.events.push(...events);
  }

  /** Undefined until a group reported. */
  result(): RbacUsage | undefined {
    return this.rules === undefined ? undefined : analyseRbacUsage(this.rules, this.events);
  }
}
