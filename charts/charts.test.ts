// The Helm charts under charts/: every value documented (and docs/helm.md current), `helm lint`,
// `helm template` with the defaults and with an operator's values (charts/operator-values.yaml,
// each value checked where it must land), bad values refused with one line naming the value, the
// default render equal to `kubectl kustomize manifests/<cloud>` up to the differences listed in
// ALLOWED_DIFFERENCES, and every render applied (server-side dry run, fieldValidation=Strict) to
// the real kube-apiserver without an error or a warning. Helm is built from e2e/helm (Go).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { HELM_MODULE, helmBinary, helmBuildVersions } from '../e2e/src/harness/helm-binary.js';
import { RealKubeApiServer, realKubeApiServerUnavailableReason } from '../e2e/src/harness/real-kube-api-server.js';
import { documentedValues, renderValuesTables, withValuesTables } from './values-doc.js';

const execFileAsync = promisify(execFile);
const chartsDirectory = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = join(chartsDirectory, '..');
const HELM_DOC = join(repositoryRoot, 'docs', 'helm.md');
const OPERATOR_VALUES = join(chartsDirectory, 'operator-values.yaml');
/** A test that runs helm a few times: generous, for a busy 2-core machine. */
const HELM_TIMEOUT = 60_000;

/** Every provider chart (`charts/<cloud>-cloud-controller-manager`; one per providers/ workspace, checked below), so a new provider's chart is tested too; the sandbox first, then by name. */
type Cloud = string;
const CHART_SUFFIX = '-cloud-controller-manager';
const CLOUDS: Cloud[] = readdirSync(chartsDirectory)
  .filter((entry) => entry.endsWith(CHART_SUFFIX))
  .map((entry) => entry.slice(0, -CHART_SUFFIX.length))
  .sort((a, b) => Number(b === 'sandbox') - Number(a === 'sandbox') || a.localeCompare(b));
/** A cloud's `--cloud-provider` name: the cloud's own name, but for the clouds whose upstream name differs. */
const CLOUD_PROVIDER_NAMES: Readonly<Record<Cloud, string>> = { gcp: 'gce' };
const cloudProviderName = (cloud: Cloud): string => CLOUD_PROVIDER_NAMES[cloud] ?? cloud;
const chartName = (cloud: Cloud) => `${cloud}-cloud-controller-manager`;
const chartDirectory = (cloud: Cloud) => join(chartsDirectory, chartName(cloud));
const valuesText = (cloud: Cloud) => readFileSync(join(chartDirectory(cloud), 'values.yaml'), 'utf8');

/** The values whose defaults differ between the charts; every other default is the same in all six. */
const PROVIDER_VALUES = ['image.repository', 'args', 'cloudConfig.name', 'cloudConfig.key', 'cloudConfig.content', 'extraVolumes', 'extraVolumeMounts', 'rbac.roles'];

/**
 * What the default Helm render may add to `kubectl kustomize manifests/<cloud>`, and nothing else:
 * Helm's four standard labels on every object, the pod annotation that rolls the pods when the
 * cloud-config changes (kustomize rolls them by renaming the ConfigMap), and the ConfigMap name
 * without kustomize's content-hash suffix.
 */
const ALLOWED_DIFFERENCES = {
  objectLabels: ['helm.sh/chart', 'app.kubernetes.io/managed-by', 'app.kubernetes.io/instance', 'app.kubernetes.io/version'],
  podAnnotations: ['checksum/cloud-config'],
  configMapNameHashSuffix: /-[a-z0-9]{10}$/,
};

interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

interface Container {
  name: string;
  image: string;
  imagePullPolicy?: string;
  args: string[];
  env?: Array<{ name: string; value?: string }>;
  ports: Array<{ containerPort: number }>;
  livenessProbe?: { httpGet?: { port?: number | string } };
  readinessProbe?: { httpGet?: { port?: number | string } };
  resources?: unknown;
  volumeMounts: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
}
interface PodSpec {
  serviceAccountName: string;
  priorityClassName?: string;
  nodeSelector?: Record<string, string>;
  tolerations?: unknown[];
  affinity?: unknown;
  topologySpreadConstraints?: unknown[];
  imagePullSecrets?: unknown[];
  securityContext?: Record<string, unknown>;
  containers: Container[];
  volumes: Array<{ name: string; configMap?: { name: string }; secret?: { secretName: string } }>;
}
interface Deployment extends KubeObject {
  spec: { replicas: number; template: { metadata: { labels: Record<string, string>; annotations?: Record<string, string> }; spec: PodSpec } };
}

/** Kubernetes reads manifests as YAML 1.1 (0440 is octal there), and so do we. */
function parseManifests(text: string): KubeObject[] {
  return parseAllDocuments(text, { version: '1.1' })
    .map((document) => document.toJSON() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
}

// ---- tools ----------------------------------------------------------------------------------

type Availability = { kind: 'run' } | { kind: 'fail'; message: string } | { kind: 'skip'; message: string };

/** Under CI=true a missing tool fails the tests that need it; elsewhere they skip, loudly. */
function availability(what: string, reasons: Array<string | undefined>): Availability {
  const missing = reasons.filter((reason): reason is string => reason !== undefined);
  if (missing.length === 0) return { kind: 'run' };
  const message = `${what} needs external programs: ${missing.join('; ')}`;
  if (process.env['CI'] === 'true') return { kind: 'fail', message: `${message} (CI=true: a failure)` };
  const bar = '!'.repeat(78);
  console.warn(`${bar}\nSKIPPING ${message}\n(Under CI=true this is a failure.)\n${bar}`);
  return { kind: 'skip', message };
}

function suiteFor(title: string, decision: Availability, body: () => void): void {
  if (decision.kind === 'run') describe(title, { timeout: HELM_TIMEOUT }, body);
  else if (decision.kind === 'skip') describe.skip(`${title} (SKIPPED: ${decision.message})`, body);
  else {
    describe(title, () => {
      it('has the programs it needs', () => {
        throw new Error(decision.message);
      });
    });
  }
}

// Helm and the kube-apiserver are relinked (or built) side by side: collection waits for both.
const [helmBuild, kubeApiServerReason] = await Promise.all([helmBinary(), realKubeApiServerUnavailableReason()]);
const helmMissing = helmBuild.kind === 'unavailable' ? `helm: ${helmBuild.reason}` : undefined;
const helmPath = helmBuild.kind === 'built' ? helmBuild.path : 'helm';

function kubectlMissing(): string | undefined {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'kubectl: not installed (apt-get install kubectl; .ci/install-prerequisites does it)';
  }
}

/** Helm's cache, config and data in an empty folder: no repository, plugin or setting of the machine's user counts. */
const helmHome = mkdtempSync(join(tmpdir(), 'ccm-charts-helm-'));
afterAll(() => rmSync(helmHome, { recursive: true, force: true }));
const helmEnvironment = { ...process.env, HELM_CACHE_HOME: join(helmHome, 'cache'), HELM_CONFIG_HOME: join(helmHome, 'config'), HELM_DATA_HOME: join(helmHome, 'data') };

async function helm(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync(helmPath, args, { cwd: repositoryRoot, maxBuffer: 16 * 1024 * 1024, env: helmEnvironment });
}

/**
 * The line Helm's loader logs for each symlink it follows in a chart from a checkout (the vendored
 * charts/ccm-common and values.schema.json); a packaged chart has none. Nothing else may reach stderr.
 */
const SYMLINK_NOTICE = /^(\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d )?(walk\.go:\d+: )?found symbolic link in path: \S+ resolves to \S+\. Contents of linked file included and used$/;
function unexpectedStderr(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.trim() !== '' && !SYMLINK_NOTICE.test(line));
}

/** `helm template` of a chart; no warning from a template or the loader. */
async function helmTemplate(cloud: Cloud, extra: string[] = []): Promise<KubeObject[]> {
  const { stdout, stderr } = await helm(['template', 'ccm', chartDirectory(cloud), ...extra]);
  expect(unexpectedStderr(stderr), `helm template ${chartName(cloud)} ${extra.join(' ')} wrote to stderr`).toEqual([]);
  return parseManifests(stdout);
}

/** The error line of a `helm template` that must fail. */
async function helmTemplateError(cloud: Cloud, extra: string[]): Promise<string> {
  const failure = await helm(['template', 'ccm', chartDirectory(cloud), ...extra]).then(
    () => undefined,
    (error: unknown) => String((error as { stderr?: string }).stderr ?? error),
  );
  expect(failure, `helm template ${extra.join(' ')} should fail`).toBeDefined();
  return unexpectedStderr(failure!).join('\n').trim();
}

const only = <T extends KubeObject>(objects: KubeObject[], kind: string): T => {
  const found = objects.filter((object) => object.kind === kind);
  expect(found.map((object) => object.metadata.name), `exactly one ${kind}`).toHaveLength(1);
  return found[0] as T;
};
const container = (deployment: Deployment) => deployment.spec.template.spec.containers[0]!;

// ---- values and docs (no tools) -----------------------------------------------------------------

describe('chart values', () => {
  it.each(CLOUDS)('%s: every value has a "# --" description', (cloud) => {
    const { undocumented } = documentedValues(valuesText(cloud));
    expect(undocumented.map((value) => `${chartName(cloud)}/values.yaml:${value.line} ${value.key}`)).toEqual([]);
  });

  it('there is one chart per provider workspace', () => {
    const workspaces = readdirSync(join(repositoryRoot, 'providers'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name.startsWith('cloud-provider-'))
      .map((entry) => entry.name.slice('cloud-provider-'.length))
      .sort();
    expect([...CLOUDS].sort()).toEqual(workspaces);
  });

  it('all six charts have the same values, and only the provider values differ in their defaults', () => {
    const rows = new Map(CLOUDS.map((cloud) => [cloud, documentedValues(valuesText(cloud)).rows] as const));
    const keys = (cloud: Cloud) => rows.get(cloud)!.map((row) => row.key);
    for (const cloud of CLOUDS) expect(keys(cloud), chartName(cloud)).toEqual(keys('sandbox'));
    for (const row of rows.get('sandbox')!) {
      if (PROVIDER_VALUES.includes(row.key)) continue;
      for (const cloud of CLOUDS) {
        const other = rows.get(cloud)!.find((candidate) => candidate.key === row.key)!;
        expect(other, `${chartName(cloud)} ${row.key}`).toEqual(row);
      }
    }
  });

  it.each(CLOUDS)('%s: the cloud-config default is manifests/<cloud> file, and Chart.yaml vendors ccm-common', (cloud) => {
    const values = parseYaml(valuesText(cloud)) as { cloudConfig: { key: string; content: string } };
    expect(values.cloudConfig.content).toBe(readFileSync(join(repositoryRoot, 'manifests', cloud, values.cloudConfig.key), 'utf8'));
    const chart = parseYaml(readFileSync(join(chartDirectory(cloud), 'Chart.yaml'), 'utf8')) as { name: string; dependencies: Array<{ name: string; repository: string }> };
    expect(chart.name).toBe(chartName(cloud));
    expect(chart.dependencies).toEqual([expect.objectContaining({ name: 'ccm-common', repository: 'file://../ccm-common' })]);
    expect(readFileSync(join(chartDirectory(cloud), 'charts', 'ccm-common', 'Chart.yaml'), 'utf8')).toContain('type: library');
  });

  it('docs/helm.md has the values tables generated from the values.yaml files', () => {
    const tables = renderValuesTables(new Map(CLOUDS.map((cloud) => [chartName(cloud), valuesText(cloud)])));
    const current = readFileSync(HELM_DOC, 'utf8');
    const expected = withValuesTables(current, tables);
    if (process.env['UPDATE_HELM_DOC'] === '1' && expected !== current) writeFileSync(HELM_DOC, expected);
    else expect(current, 'docs/helm.md is out of date: run `UPDATE_HELM_DOC=1 npx vitest run charts/charts.test.ts`').toBe(expected);
    for (const key of documentedValues(valuesText('aws')).rows.map((row) => row.key)) expect(current).toContain(`| \`${key}\` |`);
  });

  it("README's documentation list links docs/helm.md", () => {
    expect(readFileSync(join(repositoryRoot, 'README.md'), 'utf8')).toContain('(docs/helm.md)');
  });
});

// ---- helm lint and helm template --------------------------------------------------------------

suiteFor('helm lint and helm template', availability('helm lint and helm template', [helmMissing]), () => {
  it('runs the Helm pinned in e2e/helm/go.mod', async () => {
    const pinned = helmBuildVersions(readFileSync(join(HELM_MODULE, 'go.mod'), 'utf8')).helm;
    const { stdout } = await helm(['version', '--template', '{{.Version}}']);
    expect(stdout.trim()).toBe(pinned);
  });

  it('lints the library chart', async () => {
    const { stdout } = await helm(['lint', '--strict', join(chartsDirectory, 'ccm-common')]);
    expect(stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
  });

  it.each(CLOUDS)('%s: helm lint --strict, with the defaults and with the operator values', async (cloud) => {
    for (const extra of [[], ['--values', OPERATOR_VALUES]]) {
      const { stdout } = await helm(['lint', '--strict', chartDirectory(cloud), ...extra]);
      expect(stdout, extra.join(' ')).toContain('1 chart(s) linted, 0 chart(s) failed');
      expect(stdout).not.toMatch(/\[(WARNING|ERROR)\]/);
    }
  });

  it.each(CLOUDS)('%s: the defaults render the overlay: image, --cloud-provider, the cloud-config where --cloud-config points', async (cloud) => {
    const objects = await helmTemplate(cloud);
    const deployment = only<Deployment>(objects, 'Deployment');
    const main = container(deployment);
    expect(main.image).toBe(`ghcr.io/ccm-ts/${cloud}-cloud-controller-manager:v0.1.0`);
    expect(main.args[0]).toBe(`--cloud-provider=${cloudProviderName(cloud)}`);
    const configPath = main.args.find((arg) => arg.startsWith('--cloud-config='))!.slice('--cloud-config='.length);
    const configMap = only<KubeObject & { data: Record<string, string> }>(objects, 'ConfigMap');
    const mount = main.volumeMounts.find((volumeMount) => volumeMount.name === 'cloud-config')!;
    const fileName = configPath.slice(mount.mountPath.length + 1);
    expect(`${mount.mountPath}/${fileName}`).toBe(configPath);
    expect(Object.keys(configMap.data)).toEqual([fileName]);
    expect(deployment.spec.template.spec.volumes.find((volume) => volume.name === 'cloud-config')?.configMap?.name).toBe(configMap.metadata.name);
    expect(objects.every((object) => object.metadata.labels?.['helm.sh/chart'] === `${chartName(cloud)}-0.1.0`)).toBe(true);
  });

  describe.each(CLOUDS)('%s with charts/operator-values.yaml', (cloud) => {
    let objects: KubeObject[];
    let deployment: Deployment;
    beforeAll(async () => {
      objects = await helmTemplate(cloud, ['--values', OPERATOR_VALUES]);
      deployment = only<Deployment>(objects, 'Deployment');
    });

    it('puts scheduling, resources, security context, image and pod metadata where they belong', () => {
      const pod = deployment.spec.template.spec;
      expect(deployment.metadata.namespace).toBe('cloud-system');
      expect(deployment.spec.replicas).toBe(3);
      expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux', 'example.com/pool': 'system' });
      expect(pod.tolerations).toEqual([{ key: 'example.com/dedicated', operator: 'Equal', value: 'cloud-controller-manager', effect: 'NoExecute' }]);
      expect(pod.affinity).toBeUndefined();
      expect(pod.topologySpreadConstraints).toHaveLength(1);
      expect(pod.priorityClassName).toBe('system-node-critical');
      expect(pod.imagePullSecrets).toEqual([{ name: 'registry-credentials' }]);
      expect(pod.securityContext).toMatchObject({ runAsUser: 1001, fsGroup: 1001 });
      expect(pod.serviceAccountName).toBe('ccm-operator');
      const main = container(deployment);
      expect(main.resources).toEqual({ requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory: '1Gi' } });
      expect(main.image).toBe('registry.example.com/mirror/cloud-controller-manager@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef');
      expect(main.imagePullPolicy).toBe('Always');
      expect(main.env).toEqual([
        { name: 'NODE_OPTIONS', value: '--max-old-space-size=512' },
        { name: 'HTTPS_PROXY', value: 'http://proxy.example.com:3128' },
      ]);
      expect(deployment.spec.template.metadata.labels).toEqual({ 'app.kubernetes.io/name': 'cloud-controller-manager', 'example.com/team': 'platform' });
      expect(deployment.spec.template.metadata.annotations).toMatchObject({ 'example.com/owner': 'platform' });
      expect(objects.every((object) => object.metadata.labels?.['example.com/stack'] === 'ccm')).toBe(true);
    });

    it('derives the flags, the port and the probes from their values, then appends extraArgs', () => {
      const main = container(deployment);
      expect(main.args).toEqual([
        `--cloud-provider=${cloudProviderName(cloud)}`,
        '--cloud-config=/etc/cloud/provider.conf',
        '--leader-elect=true',
        '--leader-elect-resource-namespace=cloud-system',
        '--leader-elect-resource-name=ccm-lease',
        '--secure-port=10268',
        ...(parseYaml(valuesText(cloud)) as { args: string[] }).args,
        '--controllers=*,-route',
        '--kube-api-qps=50',
      ]);
      expect(main.ports).toEqual([{ name: 'https', containerPort: 10268, protocol: 'TCP' }]);
      expect(main.livenessProbe?.httpGet?.port).toBe(10268);
      expect(main.readinessProbe?.httpGet?.port).toBe(10268);
    });

    it('renders the cloud-config as a Secret, mounted where --cloud-config points, and the extra volumes', () => {
      expect(objects.filter((object) => object.kind === 'ConfigMap')).toEqual([]);
      const secret = only<KubeObject & { data: Record<string, string> }>(objects, 'Secret');
      expect(secret.metadata).toMatchObject({ name: 'ccm-cloud-config', namespace: 'cloud-system' });
      expect(Buffer.from(secret.data['provider.conf']!, 'base64').toString('utf8')).toBe("# an operator's own cloud-config, kept in a Secret\n");
      const pod = deployment.spec.template.spec;
      expect(pod.volumes.map((volume) => volume.name)).toEqual(['tmp', 'cloud-config', 'corporate-ca']);
      expect(pod.volumes[1]).toEqual({ name: 'cloud-config', secret: { secretName: 'ccm-cloud-config' } });
      expect(pod.volumes[2]).toEqual({ name: 'corporate-ca', configMap: { name: 'corporate-ca-bundle' } });
      expect(container(deployment).volumeMounts).toEqual([
        { name: 'tmp', mountPath: '/tmp' },
        { name: 'cloud-config', mountPath: '/etc/cloud', readOnly: true },
        { name: 'corporate-ca', mountPath: '/etc/ssl/corporate', readOnly: true },
      ]);
      expect(deployment.spec.template.metadata.annotations?.['checksum/cloud-config']).toMatch(/^[0-9a-f]{64}$/);
    });

    it('names the RBAC objects from the values and adds the extra ClusterRole rules', () => {
      const clusterRole = only<KubeObject & { rules: unknown[] }>(objects, 'ClusterRole');
      expect(clusterRole.metadata.name).toBe('system:ccm-operator');
      expect(clusterRole.rules.at(-1)).toEqual({ apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'], verbs: ['get'] });
      const leaderElection = objects.find((object) => object.kind === 'Role' && object.metadata.name === 'cloud-controller-manager:leader-election') as KubeObject & { rules: Array<{ resourceNames?: string[] }> };
      expect(leaderElection.metadata.namespace).toBe('cloud-system');
      expect(leaderElection.rules.flatMap((rule) => rule.resourceNames ?? [])).toContain('ccm-lease');
      for (const binding of objects.filter((object) => object.kind.endsWith('Binding')) as Array<KubeObject & { subjects: unknown[] }>) {
        expect(binding.subjects, `${binding.kind}/${binding.metadata.name}`).toEqual([{ kind: 'ServiceAccount', name: 'ccm-operator', namespace: 'cloud-system' }]);
      }
      const authenticationReader = objects.find((object) => object.metadata.name === 'cloud-controller-manager:apiserver-authentication-reader')!;
      expect(authenticationReader.metadata.namespace).toBe('kube-system');
      expect(only<KubeObject & { metadata: { annotations: unknown } }>(objects, 'ServiceAccount').metadata.annotations).toEqual({ 'example.com/identity': 'ccm' });
      expect((only<KubeObject & { spec: unknown }>(objects, 'PodDisruptionBudget').spec as { minAvailable?: number }).minAvailable).toBe(2);
    });

    it('with an existing Secret, rbac.create=false and serviceAccount.create=false renders the Deployment alone', async () => {
      const external = await helmTemplate(cloud, ['--values', OPERATOR_VALUES, '--set', 'cloudConfig.create=false,rbac.create=false,serviceAccount.create=false,podDisruptionBudget.enabled=false']);
      expect(external.map((object) => object.kind)).toEqual(['Deployment']);
      const pod = (external[0] as Deployment).spec.template.spec;
      expect(pod.volumes[1]).toEqual({ name: 'cloud-config', secret: { secretName: 'ccm-cloud-config' } });
      expect(pod.serviceAccountName).toBe('ccm-operator');
      expect((external[0] as Deployment).spec.template.metadata.annotations).toEqual({ 'example.com/owner': 'platform' });
    });
  });

  it.each(CLOUDS)('%s: helm package vendors the library and the schema; the package renders the same, without a notice', async (cloud) => {
    const { stdout } = await helm(['package', chartDirectory(cloud), '--destination', helmHome]);
    const packaged = /saved it to: (\S+\.tgz)/.exec(stdout)?.[1];
    expect(packaged, stdout).toBe(join(helmHome, `${chartName(cloud)}-0.1.0.tgz`));
    const fromPackage = await helm(['template', 'ccm', packaged!, '--values', OPERATOR_VALUES]);
    expect(fromPackage.stderr).toBe('');
    expect(parseManifests(fromPackage.stdout)).toEqual(await helmTemplate(cloud, ['--values', OPERATOR_VALUES]));
    const schemaRefusal = await helm(['template', 'ccm', packaged!, '--set', 'nodeselector.pool=system']).then(() => '', (error: unknown) => String((error as { stderr?: string }).stderr));
    expect(schemaRefusal).toContain("additional properties 'nodeselector' not allowed");
  });

  it('refuses a misspelt value by name (the shared values.schema.json)', async () => {
    const error = await helmTemplateError('aws', ['--set', 'nodeselector.pool=system']);
    expect(error).toContain("additional properties 'nodeselector' not allowed");
  });

  it.each([
    [['--set', 'cloudConfig.kind=file'], 'cloudConfig.kind must be configMap or secret, not "file"'],
    [['--set', 'cloudConfig.content='], 'cloudConfig.content is empty'],
    [['--set', 'extraArgs.--v=4'], 'extraArgs.--v: write the flag name without dashes (extraArgs.v)'],
    [['--set', 'image.digest=latest'], 'image.digest must be sha256:<64 hex digits>, not "latest"'],
    [['--set', 'rbac.roles[0].name=x'], 'rbac.roles: every entry needs a name and rules'],
    [['--set', 'leaderElection.enabled=false'], 'leaderElection.enabled=false needs replicas: 1, not 2'],
  ])('refuses %j with one line naming the value', async (extra, message) => {
    const error = await helmTemplateError('aws', extra);
    expect(error.split('\n')[0]).toContain(message);
  });
});

// ---- the default render equals the kustomize overlay -----------------------------------------------

/** Sorted, with Helm's additions removed and kustomize's hash suffix taken off generated ConfigMap names. */
function normalise(objects: KubeObject[], source: 'helm' | 'kustomize'): KubeObject[] {
  const copies = structuredClone(objects);
  const renamedConfigMaps = new Map<string, string>();
  for (const object of copies) {
    if (source === 'helm') {
      for (const label of ALLOWED_DIFFERENCES.objectLabels) delete object.metadata.labels?.[label];
      if (object.kind === 'Deployment') {
        const template = (object as Deployment).spec.template.metadata;
        for (const annotation of ALLOWED_DIFFERENCES.podAnnotations) delete template.annotations?.[annotation];
        if (template.annotations && Object.keys(template.annotations).length === 0) delete template.annotations;
      }
    } else if (object.kind === 'ConfigMap') {
      const unhashed = object.metadata.name.replace(ALLOWED_DIFFERENCES.configMapNameHashSuffix, '');
      renamedConfigMaps.set(object.metadata.name, unhashed);
      object.metadata.name = unhashed;
    }
  }
  for (const object of copies) {
    if (object.kind !== 'Deployment') continue;
    for (const volume of (object as Deployment).spec.template.spec.volumes) {
      if (volume.configMap) volume.configMap.name = renamedConfigMaps.get(volume.configMap.name) ?? volume.configMap.name;
    }
  }
  const order = (object: KubeObject) => `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
  return copies.sort((left, right) => order(left).localeCompare(order(right)));
}

const kustomizeTools = availability('the Helm-kustomize equivalence', [helmMissing, kubectlMissing()]);
suiteFor('the default render equals kubectl kustomize manifests/<cloud>', kustomizeTools, () => {
  it.each(CLOUDS)('%s', async (cloud) => {
    const fromHelm = normalise(await helmTemplate(cloud), 'helm');
    const { stdout } = await execFileAsync('kubectl', ['kustomize', join(repositoryRoot, 'manifests', cloud)], { maxBuffer: 16 * 1024 * 1024 });
    const fromKustomize = normalise(parseManifests(stdout), 'kustomize');
    expect(fromHelm.map((object) => `${object.kind}/${object.metadata.name}`)).toEqual(fromKustomize.map((object) => `${object.kind}/${object.metadata.name}`));
    for (const [index, object] of fromHelm.entries()) expect(object, `${object.kind}/${object.metadata.name}`).toEqual(fromKustomize[index]);
  });
});

// ---- server-side validation on the real kube-apiserver ----------------------------------------------

/** The REST collection of each kind the charts render. */
const COLLECTIONS: Record<string, { prefix: string; plural: string; namespaced: boolean }> = {
  ServiceAccount: { prefix: '/api/v1', plural: 'serviceaccounts', namespaced: true },
  ConfigMap: { prefix: '/api/v1', plural: 'configmaps', namespaced: true },
  Secret: { prefix: '/api/v1', plural: 'secrets', namespaced: true },
  ClusterRole: { prefix: '/apis/rbac.authorization.k8s.io/v1', plural: 'clusterroles', namespaced: false },
  ClusterRoleBinding: { prefix: '/apis/rbac.authorization.k8s.io/v1', plural: 'clusterrolebindings', namespaced: false },
  Role: { prefix: '/apis/rbac.authorization.k8s.io/v1', plural: 'roles', namespaced: true },
  RoleBinding: { prefix: '/apis/rbac.authorization.k8s.io/v1', plural: 'rolebindings', namespaced: true },
  Deployment: { prefix: '/apis/apps/v1', plural: 'deployments', namespaced: true },
  PodDisruptionBudget: { prefix: '/apis/policy/v1', plural: 'poddisruptionbudgets', namespaced: true },
};

const apiServerTools = availability('the server-side validation of the charts', [
  helmMissing,
  kubeApiServerReason === undefined ? undefined : `kube-apiserver: ${kubeApiServerReason}`,
]);
suiteFor('every render passes server-side apply (dry run, fieldValidation=Strict) on the real kube-apiserver', apiServerTools, () => {
  let server: RealKubeApiServer;
  beforeAll(async () => {
    server = await RealKubeApiServer.start({ auditLog: false });
    const created = await fetch(`${server.adminUrl}/api/v1/namespaces`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'cloud-system' } }),
    });
    expect(created.status, await created.text()).toBe(201);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  }, 60_000);

  /** Server-side applies one object as a dry run; returns the problems (status, warnings). */
  async function applyDryRun(object: KubeObject): Promise<string[]> {
    const collection = COLLECTIONS[object.kind];
    if (collection === undefined) return [`${object.kind}: no REST path known to this test`];
    const namespace = collection.namespaced ? `/namespaces/${object.metadata.namespace}` : '';
    const path = `${collection.prefix}${namespace}/${collection.plural}/${encodeURIComponent(object.metadata.name)}`;
    const response = await fetch(`${server.adminUrl}${path}?dryRun=All&fieldManager=charts-test&fieldValidation=Strict&force=true`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/apply-patch+yaml', accept: 'application/json' },
      body: JSON.stringify(object),
    });
    const problems: string[] = [];
    const label = `${object.kind}/${object.metadata.name}`;
    if (response.status !== 200 && response.status !== 201) problems.push(`${label}: HTTP ${response.status} ${await response.text()}`);
    const warning = response.headers.get('warning');
    if (warning) problems.push(`${label}: warning ${warning}`);
    return problems;
  }

  it.each(CLOUDS)('%s: the default render and the operator-values render', async (cloud) => {
    for (const extra of [[], ['--values', OPERATOR_VALUES]]) {
      const objects = await helmTemplate(cloud, extra);
      expect(objects.length).toBeGreaterThan(5);
      const problems = (await Promise.all(objects.map(applyDryRun))).flat();
      expect(problems, `${chartName(cloud)} ${extra.join(' ')}; the API server's log:\n${problems.length ? server.logTail(10) : ''}`).toEqual([]);
    }
  });
});
