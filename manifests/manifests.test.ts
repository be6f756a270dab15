// Renders every kustomization under manifests/ with the real `kubectl kustomize`, validates every
// object against the Kubernetes OpenAPI schemas (kubernetes-models) and checks the security
// properties operators rely on: least-privilege RBAC, non-root, read-only root filesystem.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const manifestsDirectory = dirname(fileURLToPath(import.meta.url));
const kustomizations = readdirSync(manifestsDirectory, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(manifestsDirectory, entry.name, 'kustomization.yaml')))
  .map((entry) => entry.name)
  .sort();

function findKubectl(): string | undefined {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return 'kubectl';
  } catch {
    return undefined;
  }
}
const kubectl = findKubectl();
if (!kubectl && process.env['CI'] !== 'true') {
  console.warn('SKIPPING manifest tests: kubectl is not installed (apt-get install kubectl, or see https://kubernetes.io/docs/tasks/tools/)');
}

interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  [field: string]: unknown;
}

function render(name: string): KubernetesObject[] {
  if (!kubectl) throw new Error('kubectl is required to render the manifests (CI=true): install it with apt-get install kubectl');
  const output = execFileSync(kubectl, ['kustomize', join(manifestsDirectory, name)], { encoding: 'utf8' });
  return parseAllDocuments(output).map((document) => document.toJSON() as KubernetesObject);
}

async function validateAgainstSchema(object: KubernetesObject): Promise<void> {
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
  const modulePath = group === '' ? `kubernetes-models/${version}/${object.kind}` : `kubernetes-models/${group}/${version}/${object.kind}`;
  const module = (await import(modulePath)) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = module[object.kind];
  if (!Model) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
  new Model(object).validate();
}

type PolicyRule = { apiGroups?: string[]; resources?: string[]; verbs?: string[]; resourceNames?: string[] };

const suite = kubectl || process.env['CI'] === 'true' ? describe : describe.skip;

suite('manifests', () => {
  it('has a base and at least one provider overlay', () => {
    expect(kustomizations).toContain('base');
    expect(kustomizations.length).toBeGreaterThan(1);
  });

  describe.each(kustomizations)('kubectl kustomize manifests/%s', (name) => {
    const objects = render(name);

    it('renders objects that validate against the Kubernetes schemas', async () => {
      expect(objects.length).toBeGreaterThan(0);
      for (const object of objects) {
        await expect(validateAgainstSchema(object), `${object.kind}/${object.metadata.name}`).resolves.toBeUndefined();
      }
    });

    it('grants least privilege: no wildcards, no cluster-admin, no secrets cluster-wide', () => {
      for (const object of objects) {
        if (object.kind === 'ClusterRole' || object.kind === 'Role') {
          for (const rule of (object['rules'] as PolicyRule[]) ?? []) {
            for (const field of [rule.apiGroups, rule.resources, rule.verbs, rule.resourceNames]) {
              expect(field ?? [], `${object.kind}/${object.metadata.name} ${JSON.stringify(rule)}`).not.toContain('*');
            }
            if (object.kind === 'ClusterRole') {
              expect(rule.resources ?? [], `ClusterRole/${object.metadata.name} must not read secrets cluster-wide`).not.toContain('secrets');
            }
          }
        }
        if (object.kind === 'ClusterRoleBinding' || object.kind === 'RoleBinding') {
          const roleReference = object['roleRef'] as { name: string };
          expect(roleReference.name).not.toBe('cluster-admin');
          expect(roleReference.name).not.toBe('admin');
        }
      }
    });

    it('runs the controller manager non-root with a read-only root filesystem and leader election', () => {
      const deployments = objects.filter((object) => object.kind === 'Deployment');
      expect(deployments).toHaveLength(1);
      const deployment = deployments[0] as unknown as {
        spec: {
          replicas: number;
          template: {
            spec: {
              hostNetwork?: boolean;
              priorityClassName?: string;
              securityContext?: { runAsNonRoot?: boolean; seccompProfile?: { type?: string } };
              tolerations?: Array<{ key?: string }>;
              nodeSelector?: Record<string, string>;
              containers: Array<{
                image: string;
                args?: string[];
                securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; runAsNonRoot?: boolean; capabilities?: { drop?: string[] } };
                livenessProbe?: { httpGet?: { path?: string; port?: number; scheme?: string } };
                resources?: { requests?: Record<string, string> };
              }>;
            };
          };
        };
      };
      const podSpec = deployment.spec.template.spec;
      expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
      expect(podSpec.hostNetwork).toBe(true);
      expect(podSpec.priorityClassName).toBe('system-cluster-critical');
      expect(podSpec.securityContext?.runAsNonRoot).toBe(true);
      expect(podSpec.securityContext?.seccompProfile?.type).toBe('RuntimeDefault');
      expect(Object.keys(podSpec.nodeSelector ?? {})).toContain('node-role.kubernetes.io/control-plane');
      const tolerated = (podSpec.tolerations ?? []).map((toleration) => toleration.key);
      expect(tolerated).toEqual(expect.arrayContaining(['node.cloudprovider.kubernetes.io/uninitialized', 'node.kubernetes.io/not-ready', 'node-role.kubernetes.io/control-plane']));
      for (const container of podSpec.containers) {
        expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
        expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
        expect(container.securityContext?.capabilities?.drop).toContain('ALL');
        expect(container.livenessProbe?.httpGet).toMatchObject({ path: '/healthz', port: 10258, scheme: 'HTTPS' });
        expect(container.resources?.requests).toBeDefined();
        expect(container.args ?? []).toContain('--leader-elect=true');
        if (name !== 'base') {
          expect(container.image, 'an overlay sets the provider image').not.toBe('cloud-controller-manager');
          expect((container.args ?? []).some((argument) => argument.startsWith('--cloud-provider='))).toBe(true);
        }
      }
      expect(objects.some((object) => object.kind === 'PodDisruptionBudget')).toBe(true);
    });
  });
});
