/**
 * The real kubectl against the emulator. Outside CI a missing kubectl skips this suite with a
 * warning; with CI=true it fails.
 */
import { execFile, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startKubeEmulator, type KubeEmulator } from './kube-emulator.js';

const run = promisify(execFile);

function findKubectl(): string | undefined {
  const candidates = ['/usr/bin/kubectl', ...(process.env['PATH'] ?? '').split(delimiter).map((directory) => join(directory, 'kubectl'))];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  return undefined;
}

const kubectlPath = findKubectl();
const missingReason = 'kubectl is not installed (looked in /usr/bin and PATH); install it, e.g. `apt-get install kubectl` or from https://dl.k8s.io/release/v1.32.4/bin/linux/amd64/kubectl';

if (!kubectlPath && process.env['CI'] === 'true') {
  describe('kubectl against the emulator', () => {
    it('needs kubectl', () => {
      throw new Error(missingReason);
    });
  });
} else if (!kubectlPath) {
  console.warn(`SKIPPING kubectl tests: ${missingReason}`);
  describe.skip('kubectl against the emulator (kubectl missing)', () => {
    it('needs kubectl', () => undefined);
  });
} else {
  const binary = kubectlPath;
  let emulator: KubeEmulator;
  let directory: string;
  let baseArguments: string[];

  const kubectl = async (...args: string[]): Promise<string> => {
    const { stdout } = await run(binary, [...baseArguments, ...args], { timeout: 15_000 });
    return stdout;
  };
  const kubectlFailure = async (...args: string[]): Promise<string> => {
    try {
      await run(binary, [...baseArguments, ...args], { timeout: 15_000 });
    } catch (error) {
      return String((error as { stderr?: string }).stderr ?? error);
    }
    throw new Error(`kubectl ${args.join(' ')} succeeded`);
  };

  beforeAll(async () => {
    emulator = await startKubeEmulator();
    directory = await mkdtemp(join(tmpdir(), 'kube-emulator-kubectl-'));
    const kubeconfig = join(directory, 'kubeconfig');
    await emulator.writeKubeconfig(kubeconfig);
    baseArguments = ['--kubeconfig', kubeconfig, '--cache-dir', join(directory, 'cache'), '--request-timeout', '10s'];
  });
  afterAll(async () => {
    await emulator.close();
    await rm(directory, { recursive: true, force: true });
  });

  describe('kubectl against the emulator', () => {
    it('creates from a file and gets tables, JSON, YAML and raw lists', async () => {
      const manifest = join(directory, 'objects.yaml');
      await writeFile(
        manifest,
        [
          'apiVersion: v1\nkind: Node\nmetadata:\n  name: worker-1\n  labels: {pool: blue, node-role.kubernetes.io/worker: ""}\nstatus:\n  conditions: [{type: Ready, status: "True"}]\n  nodeInfo: {kubeletVersion: v1.32.4}\n',
          'apiVersion: v1\nkind: Node\nmetadata:\n  name: worker-2\n  labels: {pool: green}\nspec:\n  unschedulable: true\n',
          'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: kube-system\ndata: {a: "1"}\n',
        ].join('---\n'),
      );
      expect(await kubectl('create', '-f', manifest)).toBe('node/worker-1 created\nnode/worker-2 created\nconfigmap/settings created\n');
      const table = (await kubectl('get', 'nodes')).trim().split('\n');
      expect(table[0]?.split(/\s+/)).toEqual(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
      expect(table[1]?.split(/\s+/).slice(0, 3)).toEqual(['worker-1', 'Ready', 'worker']);
      expect(table[1]?.split(/\s+/)[4]).toBe('v1.32.4');
      expect(table[2]?.split(/\s+/).slice(0, 3)).toEqual(['worker-2', 'Unknown,SchedulingDisabled', '<none>']);
      const json = JSON.parse(await kubectl('get', 'node', 'worker-1', '-o', 'json')) as { kind: string; metadata: { uid: string } };
      expect(json.kind).toBe('Node');
      expect(json.metadata.uid).toBe(emulator.get('nodes', 'worker-1')?.metadata.uid);
      const yaml = parseYaml(await kubectl('get', 'cm', '-n', 'kube-system', '-o', 'yaml')) as { kind: string; items: Array<{ data: Record<string, string> }> };
      expect(yaml.kind).toBe('List');
      expect(yaml.items[0]?.data).toEqual({ a: '1' });
      const raw = JSON.parse(await kubectl('get', '--raw', '/api/v1/nodes')) as { kind: string; items: unknown[] };
      expect(raw.kind).toBe('NodeList');
      expect(raw.items).toHaveLength(2);
      expect(await kubectl('get', 'ns', '-o', 'name')).toBe('namespace/default\nnamespace/kube-node-lease\nnamespace/kube-public\nnamespace/kube-system\n');
    });

    it('creates with the imperative generators (protobuf request bodies)', async () => {
      expect(await kubectl('create', 'namespace', 'team')).toBe('namespace/team created\n');
      expect(await kubectl('create', 'configmap', 'c1', '-n', 'team', '--from-literal=a=b')).toBe('configmap/c1 created\n');
      expect(await kubectl('create', 'secret', 'generic', 's1', '-n', 'team', '--from-literal=password=hunter2')).toBe('secret/s1 created\n');
      expect(await kubectl('create', 'service', 'loadbalancer', 'lb', '-n', 'team', '--tcp=443:8443')).toBe('service/lb created\n');
      expect(emulator.get('configmaps', 'c1', 'team')).toMatchObject({ data: { a: 'b' } });
      expect(emulator.get('secrets', 's1', 'team')).toMatchObject({ data: { password: Buffer.from('hunter2').toString('base64') }, type: 'Opaque' });
      expect(emulator.get('services', 'lb', 'team')).toMatchObject({
        metadata: { labels: { app: 'lb' } },
        spec: { type: 'LoadBalancer', selector: { app: 'lb' }, ports: [{ name: '443-8443', port: 443, targetPort: 8443, protocol: 'TCP', nodePort: expect.any(Number) }] },
      });
      const services = (await kubectl('get', 'svc', '-n', 'team')).trim().split('\n');
      expect(services[1]?.split(/\s+/)).toEqual(['lb', 'LoadBalancer', expect.stringMatching(/^10\./), '<pending>', expect.stringMatching(/^443:\d+\/TCP$/), expect.any(String)]);
      expect(await kubectl('delete', 'namespace', 'team')).toBe('namespace "team" deleted\n');
      expect(emulator.get('namespaces', 'team')).toBeUndefined();
    });

    it('filters with -l and --field-selector', async () => {
      expect(await kubectl('get', 'no', '-l', 'pool=blue', '-o', 'name')).toBe('node/worker-1\n');
      expect(await kubectl('get', 'no', '-l', 'pool notin (blue)', '-o', 'name')).toBe('node/worker-2\n');
      expect(await kubectl('get', 'nodes', '--field-selector', 'spec.unschedulable=true', '-o', 'name')).toBe('node/worker-2\n');
      expect(await kubectlFailure('get', 'nodes', '--field-selector', 'spec.nope=1')).toContain('field label not supported: spec.nope');
    });

    it('labels, annotates, taints and patches with every patch type', async () => {
      expect(await kubectl('label', 'node', 'worker-1', 'tier=gold')).toBe('node/worker-1 labeled\n');
      expect(await kubectl('annotate', 'node', 'worker-1', 'example.com/note=hello')).toBe('node/worker-1 annotated\n');
      expect(await kubectl('taint', 'node', 'worker-1', 'dedicated=ccm:NoSchedule')).toBe('node/worker-1 tainted\n');
      await kubectl('patch', 'node', 'worker-1', '--type', 'merge', '-p', '{"metadata":{"labels":{"merged":"yes"}}}');
      await kubectl('patch', 'node', 'worker-1', '--type', 'json', '-p', '[{"op":"add","path":"/metadata/labels/json","value":"yes"}]');
      await kubectl('patch', 'node', 'worker-1', '--type', 'strategic', '-p', '{"spec":{"providerID":"sandbox:///worker-1"}}');
      await kubectl('patch', 'node', 'worker-1', '--subresource', 'status', '--type', 'strategic', '-p', '{"status":{"addresses":[{"type":"InternalIP","address":"10.1.0.1"}]}}');
      const node = emulator.get<{ metadata: { labels: Record<string, string>; annotations: Record<string, string> }; spec: Record<string, unknown>; status: Record<string, unknown> }>('nodes', 'worker-1');
      expect(node?.metadata.labels).toMatchObject({ tier: 'gold', merged: 'yes', json: 'yes' });
      expect(node?.metadata.annotations).toEqual({ 'example.com/note': 'hello' });
      // not-ready: the TaintNodesByCondition admission of kube-apiserver adds it on create.
      expect(node?.spec).toEqual({ taints: [{ key: 'dedicated', value: 'ccm', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }], providerID: 'sandbox:///worker-1' });
      expect(node?.status['addresses']).toEqual([{ type: 'InternalIP', address: '10.1.0.1' }]);
      expect(await kubectl('taint', 'node', 'worker-1', 'dedicated:NoSchedule-')).toBe('node/worker-1 untainted\n');
      expect(await kubectlFailure('patch', 'node', 'worker-1', '--type', 'json', '-p', '[{"op":"test","path":"/metadata/labels/tier","value":"silver"}]')).toContain('test failed');
      expect(await kubectlFailure('taint', 'node', 'worker-2', 'bad=x:Sometimes')).toContain('Sometimes');
    });

    it('watches with -w and sees an update', async () => {
      const child = spawn(binary, [...baseArguments, 'get', 'node', 'worker-2', '-w', '-L', 'step', '--request-timeout', '0']);
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      try {
        await expect.poll(() => output, { timeout: 10_000 }).toContain('worker-2');
        await expect.poll(() => emulator.openWatchCount(), { timeout: 10_000 }).toBeGreaterThan(0);
        emulator.patch('nodes', 'worker-2', { metadata: { labels: { step: 'two' } } }, 'merge');
        await expect.poll(() => output, { timeout: 10_000 }).toMatch(/worker-2\s.*\btwo\b/);
      } finally {
        child.kill('SIGTERM');
      }
    });

    it('talks HTTPS with the certificate authority from the kubeconfig', async () => {
      const secure = await startKubeEmulator({ https: true });
      try {
        const kubeconfig = join(directory, 'kubeconfig-https');
        await secure.writeKubeconfig(kubeconfig);
        const { stdout } = await run(binary, ['--kubeconfig', kubeconfig, '--cache-dir', join(directory, 'cache-https'), 'get', 'namespaces', '-o', 'name'], { timeout: 15_000 });
        expect(stdout).toContain('namespace/kube-system');
      } finally {
        await secure.close();
      }
    });

    it('deletes, waiting for finalizers like a real cluster', async () => {
      expect(await kubectl('delete', 'node', 'worker-2')).toBe('node "worker-2" deleted\n');
      expect(emulator.get('nodes', 'worker-2')).toBeUndefined();
      emulator.create('configmaps', { metadata: { name: 'held', finalizers: ['example.com/hold'] } }, { namespace: 'default' });
      expect(await kubectl('delete', 'cm', 'held', '--wait=false')).toBe('configmap "held" deleted\n');
      expect(emulator.get('configmaps', 'held', 'default')?.metadata.deletionTimestamp).toBeDefined();
      expect(await kubectlFailure('get', 'node', 'worker-2')).toContain('nodes "worker-2" not found');
    });
  });
}
