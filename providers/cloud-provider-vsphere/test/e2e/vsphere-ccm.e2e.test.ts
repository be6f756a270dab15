/**
 * The real vSphere CCM binary (dist/cloud-controller-manager/main.js) as a child process,
 * against @ccm/kube-emulator (served over HTTP, in this process) and the vCenter simulator:
 *
 * - password rotation through the credential Secret, without restarting the CCM;
 * - a misconfigured vCenter (wrong password, unknown datacenter, zone tag category missing or
 *   not on the host chain): the CCM keeps running, the node keeps its uninitialized taint, the
 *   problem is named in one log line, core's per-node retries back off, no stack traces;
 * - a bad cloud-config file: exit status 1 with the file and line of every problem.
 *
 * How often things are logged, by design:
 * - the provider's own problem line (`problem="..."` field, operations/problem-reporter.ts) is
 *   logged once per change: exactly once while the problem lasts;
 * - core's node controller logs `error syncing '<node>': ..., requeuing` on every failed sync,
 *   requeued with the upstream per-item exponential backoff (5 ms doubling): for a node with
 *   no other events the i-th gap between two such lines is at least 5 ms * 2^i, so T ms hold
 *   at most about log2(T / 5 + 1) + 1 of them (see expectBackoff).
 *
 * Needs Go >= the go line of e2e/vcsim/go.mod (see docs/testing.md) and the built CCM (`pnpm exec turbo run build`).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { VapiTaggingClient, createVsphereDispatcher } from '@ccm/vsphere-client';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import type { CcmProcessSpec } from '../../../../e2e/src/conformance/provider-driver.js';
import { findTaint, isInitialized, registerNode } from '../../../../e2e/src/harness/node-registration.js';
import { TestCluster, type CcmInstance } from '../../../../e2e/src/harness/test-cluster.js';
import { expectToHold, waitFor } from '../../../../e2e/src/harness/wait-for.js';
import { escapeRegExp, expectBackoff, outputLines, stackTraceLines } from '../support/ccm-log-assertions.js';
import { buildVcsim, startVcsim, vcsimSuite, type Vcsim } from '../support/vcsim.js';
import { VSPHERE_CCM_BIN } from '../conformance/vsphere-driver.js';

const UNINITIALIZED = 'node.cloudprovider.kubernetes.io/uninitialized';
/** How long a broken setup is watched after its problem was first logged (four node-monitor periods). */
const OBSERVE_MS = 4_000;
const WAIT_MS = 20_000;
const TEST_TIMEOUT_MS = 45_000;
const SECRET_NAMESPACE = 'kube-system';
// The Secret name manifests/vsphere's Role allows (the real API server enforces it).
const SECRET_NAME = 'vsphere-cloud-secret';
const ROTATED_PASSWORD = 'rotated-Passw0rd!';

vcsimSuite('vSphere CCM binary end to end (kube-emulator, vCenter simulator)', () => {
  let vcsim: Vcsim | undefined;
  let cluster: TestCluster | undefined;

  beforeAll(async () => {
    if (!existsSync(VSPHERE_CCM_BIN)) {
      throw new Error(`the vSphere CCM is not built: ${VSPHERE_CCM_BIN} is missing (run \`pnpm exec turbo run build\` at the repository root)`);
    }
    await buildVcsim();
  }, 300_000);

  beforeEach(async (context) => {
    context.onTestFailed(() => {
      if (cluster !== undefined) console.error(`CCM output for failed test "${context.task.name}":\n${cluster.report(400)}`);
      if (vcsim !== undefined) console.error(`vcsim output:\n${vcsim.logs().slice(-4_000)}`);
    });
    vcsim = await startVcsim();
    cluster = await TestCluster.start({ manifestsOverlay: 'vsphere' });
  });

  afterEach(async () => {
    if (process.env['CCM_E2E_SHOW_OUTPUT'] === '1' && cluster !== undefined) console.log(`CCM output:\n${cluster.report(5_000)}`);
    const stopping = [cluster?.close(), vcsim?.stop()];
    cluster = undefined;
    vcsim = undefined;
    await Promise.allSettled(stopping);
  });

  function simulator(): Vcsim {
    if (vcsim === undefined) throw new Error('the simulator is not started');
    return vcsim;
  }

  function testCluster(): TestCluster {
    if (cluster === undefined) throw new Error('the cluster is not started');
    return cluster;
  }

  interface ConfigOptions {
    credentials: 'secret' | { password: string };
    datacenters?: string[];
    /** Tag categories of zones and regions (upstream looks zones up only when both are set). */
    labels?: { zone: string; region: string };
    extraGlobal?: string[];
  }

  /** A YAML cloud config for the simulator (CA-verified TLS), written to the cluster's directory. */
  async function writeCloudConfig(options: ConfigOptions): Promise<string> {
    const server = new URL(simulator().url);
    const lines = [
      'global:',
      ...(options.credentials === 'secret'
        ? [`  secretName: ${SECRET_NAME}`, `  secretNamespace: ${SECRET_NAMESPACE}`]
        : [`  user: ${JSON.stringify(simulator().username)}`, `  password: ${JSON.stringify(options.credentials.password)}`]),
      `  caFile: ${simulator().caFile}`,
      ...(options.extraGlobal ?? []),
      'vcenter:',
      '  vcsim:',
      `    server: ${server.hostname}`,
      `    port: ${server.port}`,
      ...(options.datacenters === undefined ? [] : ['    datacenters:', ...options.datacenters.map((name) => `      - ${name}`)]),
      ...(options.labels === undefined ? [] : ['labels:', `  zone: ${options.labels.zone}`, `  region: ${options.labels.region}`]),
      '',
    ];
    const path = join(testCluster().directory, 'vsphere.yaml');
    await writeFile(path, lines.join('\n'), { mode: 0o600 });
    return path;
  }

  function ccmSpec(cloudConfigPath: string): CcmProcessSpec {
    return { command: process.execPath, args: [VSPHERE_CCM_BIN, '--cloud-provider=vsphere', `--cloud-config=${cloudConfigPath}`] };
  }

  function secretPath(): string {
    return `/api/v1/namespaces/${SECRET_NAMESPACE}/secrets/${SECRET_NAME}`;
  }

  function secretData(username: string, password: string): Record<string, string> {
    const server = new URL(simulator().url).hostname;
    const encode = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
    return { [`${server}.username`]: encode(username), [`${server}.password`]: encode(password) };
  }

  async function waitUntilInitialized(ccm: CcmInstance, nodeName: string): Promise<void> {
    await testCluster().waitFor(`node ${nodeName} to lose its uninitialized taint (${ccm.label})`, async (observe) => {
      const node = await testCluster().client.getNode(nodeName);
      observe(node.spec);
      return isInitialized(node) && (node.spec?.providerID ?? '').startsWith('vsphere://');
    });
  }

  /** Waits until the CCM output has a line matching `matcher`; returns the output lines then. */
  async function waitForLogLine(ccm: CcmInstance, description: string, matcher: (line: string) => boolean, timeoutMs = WAIT_MS): Promise<string[]> {
    return testCluster().waitFor(
      description,
      () => {
        const lines = outputLines(ccm);
        return lines.some(matcher) ? lines : undefined;
      },
      timeoutMs,
    );
  }

  /**
   * The common shape of a misconfigured vCenter: the node is registered, the CCM starts, the
   * problem shows up; for OBSERVE_MS the node stays tainted and the CCM stays up; then the log
   * is checked (provider line once, core retries backing off, no stack traces).
   */
  async function expectStuckQuietly(options: {
    config: ConfigOptions;
    nodeName: string;
    /** The provider's own problem line (logged once per change), or undefined when none is expected. */
    problemLine?: (line: string) => boolean;
    /** What core's retry lines for the node must say. */
    syncErrorText: string[];
  }): Promise<CcmInstance> {
    // Registered before the CCM starts (as after a CCM restart): the node controller gets one
    // add and no updates, so its retries follow the backoff exactly.
    await registerNode(testCluster().client, { name: options.nodeName });
    const ccm = await testCluster().startCcm(ccmSpec(await writeCloudConfig(options.config)), { label: 'vsphere-ccm' });
    const isSyncError = (line: string): boolean => line.includes(`error syncing '${options.nodeName}'`);
    await waitForLogLine(ccm, `a failed sync of node ${options.nodeName}`, isSyncError);
    if (options.problemLine !== undefined) await waitForLogLine(ccm, 'the provider to log the problem', options.problemLine);

    await expectToHold(
      `node ${options.nodeName} to keep its uninitialized taint while the CCM runs`,
      async (observe) => {
        const node = await testCluster().client.getNode(options.nodeName);
        observe(node.spec?.taints);
        return findTaint(node, UNINITIALIZED) !== undefined;
      },
      OBSERVE_MS,
      { abortIf: () => testCluster().unexpectedExit(), describeContext: () => testCluster().report(), intervalMs: 500 },
    );

    expect(ccm.process.exitStatus(), 'the CCM must not exit').toBeUndefined();
    expect(ccm.process.isRunning()).toBe(true);
    const lines = outputLines(ccm);
    expect(stackTraceLines(lines), 'no JavaScript stack trace in the CCM output').toEqual([]);
    if (options.problemLine !== undefined) {
      expect(lines.filter(options.problemLine), 'the provider logs the problem once').toHaveLength(1);
    }
    const syncErrors = lines.filter(isSyncError);
    for (const text of options.syncErrorText) expect(syncErrors[0]).toContain(text);
    expectBackoff(syncErrors, 0);
    return ccm;
  }

  it(
    'uses a rotated vCenter password from the credential Secret without a restart',
    async () => {
      const client = testCluster().client;
      const vcsimNow = simulator();
      const first = await vcsimNow.admin.createVm({ name: 'rotation-node-1' });
      const second = await vcsimNow.admin.createVm({ name: 'rotation-node-2' });
      await client.request('POST', `/api/v1/namespaces/${SECRET_NAMESPACE}/secrets`, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: SECRET_NAME, namespace: SECRET_NAMESPACE },
        type: 'Opaque',
        data: secretData(vcsimNow.username, vcsimNow.password),
      });
      // An unknown key is only a warning with its file and line (upstream ignores unknown keys).
      const configPath = await writeCloudConfig({ credentials: 'secret', extraGlobal: ['  colour: blue'] });
      const ccm = await testCluster().startCcm(ccmSpec(configPath), { label: 'vsphere-ccm' });
      const pid = ccm.process.pid;

      await registerNode(client, { name: 'rotation-node-1' });
      await waitUntilInitialized(ccm, 'rotation-node-1');
      expect((await client.getNode('rotation-node-1')).spec?.providerID).toBe(`vsphere://${first.uuid.toLowerCase()}`);
      const unknownKey = outputLines(ccm).filter((line) => line.startsWith('W') && line.includes('unknown key \\"global.colour\\"'));
      expect(unknownKey).toHaveLength(1);
      expect(unknownKey[0]).toContain(`file=${JSON.stringify(configPath)} line=5`);

      // vCenter's password changes and every session ends; the Secret still has the old one.
      await vcsimNow.admin.setCredentials(vcsimNow.username, ROTATED_PASSWORD);
      await vcsimNow.admin.terminateSessions();
      const linesBefore = outputLines(ccm).length;
      await registerNode(client, { name: 'rotation-node-2' });

      const isRefused = (line: string): boolean => line.startsWith('E') && line.includes('refused the login') && line.includes('problem=');
      const isSyncError = (line: string): boolean => line.includes(`error syncing 'rotation-node-2'`);
      await testCluster().waitFor('the refused login and three failed syncs of rotation-node-2', () => {
        const lines = outputLines(ccm).slice(linesBefore);
        return lines.some(isRefused) && lines.filter(isSyncError).length >= 3;
      });
      await expectToHold(
        'rotation-node-2 to stay uninitialized with the old password',
        async () => findTaint(await client.getNode('rotation-node-2'), UNINITIALIZED) !== undefined,
        1_500,
        { abortIf: () => testCluster().unexpectedExit(), intervalMs: 250 },
      );
      const failing = outputLines(ccm).slice(linesBefore);
      const refused = failing.filter(isRefused);
      expect(refused, 'the refused login is logged once').toHaveLength(1);
      expect(refused[0]).toContain(`vCenter \\"vcsim\\" (${new URL(vcsimNow.url).hostname}) refused the login`);
      expect(refused[0]).toContain('the user name or password is wrong');
      expect(refused[0]).not.toContain(vcsimNow.password);
      expect(failing.filter(isSyncError)[0]).toContain('refused the login');
      // Registered while the CCM runs: the create and the status patch are two enqueues.
      expectBackoff(failing.filter(isSyncError), 2);
      expect(stackTraceLines(failing)).toEqual([]);

      // The Secret gets the new password: the next retry logs in with it.
      await client.request('PATCH', secretPath(), { data: secretData(vcsimNow.username, ROTATED_PASSWORD) }, 'application/merge-patch+json');
      await waitUntilInitialized(ccm, 'rotation-node-2');
      expect((await client.getNode('rotation-node-2')).spec?.providerID).toBe(`vsphere://${second.uuid.toLowerCase()}`);
      expect(ccm.process.pid).toBe(pid);
      expect(ccm.process.isRunning(), 'the CCM was not restarted').toBe(true);
      const after = outputLines(ccm).slice(linesBefore);
      expect(after.some((line) => line.includes('Credential Secret changed'))).toBe(true);
      expect(after.some((line) => line.includes('"Problem resolved"') && line.includes('problem="vcenter \\"vcsim\\""'))).toBe(true);
      expect(outputLines(ccm).join('\n')).not.toContain(ROTATED_PASSWORD);
      expect(stackTraceLines(outputLines(ccm))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'keeps running with a wrong password: one line naming the vCenter and the refused login',
    async () => {
      await simulator().admin.createVm({ name: 'wrong-password-node' });
      const server = new URL(simulator().url).hostname;
      const ccm = await expectStuckQuietly({
        config: { credentials: { password: 'not-the-password' } },
        nodeName: 'wrong-password-node',
        problemLine: (line) =>
          line.startsWith('E') &&
          line.includes(`vCenter \\"vcsim\\" (${server}) refused the login`) &&
          line.includes('the user name or password is wrong (InvalidLogin)') &&
          line.includes('problem='),
        syncErrorText: ['failed to get instance metadata for node wrong-password-node', 'refused the login'],
      });
      expect(outputLines(ccm).join('\n')).not.toContain('not-the-password');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'keeps running with an unknown datacenter: one line naming the datacenter',
    async () => {
      await simulator().admin.createVm({ name: 'unknown-dc-node' });
      await expectStuckQuietly({
        config: { credentials: { password: simulator().password }, datacenters: ['NoSuchDC'] },
        nodeName: 'unknown-dc-node',
        problemLine: (line) =>
          line.startsWith('E') &&
          line.includes('datacenter \\"NoSuchDC\\" (configured for vCenter \\"vcsim\\") does not exist there; existing: /DC0') &&
          line.includes('problem='),
        syncErrorText: ['failed to get instance metadata for node unknown-dc-node', 'datacenter \\"NoSuchDC\\" does not exist'],
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'keeps running when the zone tag category does not exist: one line naming the category',
    async () => {
      await simulator().admin.createVm({ name: 'no-category-node' });
      await expectStuckQuietly({
        config: { credentials: { password: simulator().password }, labels: { zone: 'k8s-zone-missing', region: 'k8s-region-missing' } },
        nodeName: 'no-category-node',
        problemLine: (line) =>
          line.startsWith('E') &&
          line.includes('tag categories \\"k8s-zone-missing\\", \\"k8s-region-missing\\" (labels.zone/labels.region) do not exist on vCenter \\"vcsim\\"') &&
          line.includes('problem='),
        syncErrorText: ['vSphere zone category \\"k8s-zone-missing\\" does not match any tag'],
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'keeps running when no host-chain object has a tag of the zone category: the retries name it and back off',
    async () => {
      const vcsimNow = simulator();
      // The category exists and has a tag, but on another host than the node VM's.
      const tagging = new VapiTaggingClient({
        server: vcsimNow.url,
        credentials: () => ({ username: vcsimNow.username, password: vcsimNow.password }),
        dispatcher: createVsphereDispatcher({ ca: vcsimNow.ca! }),
      });
      const inventory = await vcsimNow.admin.inventory();
      const otherHost = inventory.hosts.find((host) => host.name === 'DC0_C0_H1');
      if (otherHost === undefined) throw new Error(`vcsim has no host DC0_C0_H1: ${inventory.hosts.map((host) => host.name).join(', ')}`);
      const category = await tagging.createCategory({ name: 'k8s-zone', associableTypes: ['HostSystem'] });
      await tagging.attachTag(await tagging.createTag({ name: 'zone-elsewhere', categoryId: category }), otherHost.ref);
      const regionCategory = await tagging.createCategory({ name: 'k8s-region', associableTypes: ['HostSystem'] });
      await tagging.attachTag(await tagging.createTag({ name: 'region-elsewhere', categoryId: regionCategory }), otherHost.ref);
      await tagging.logout();
      await vcsimNow.admin.createVm({ name: 'untagged-node', host: 'DC0_H0' });

      const ccm = await expectStuckQuietly({
        config: { credentials: { password: vcsimNow.password }, labels: { zone: 'k8s-zone', region: 'k8s-region' } },
        nodeName: 'untagged-node',
        syncErrorText: ['vSphere zone category \\"k8s-zone\\" does not match any tag', 'untagged-node', 'on vCenter \\"vcsim\\"'],
      });
      // The category exists, so the startup check reports nothing.
      expect(outputLines(ccm).filter((line) => line.includes('problem='))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'exits 1 on a cloud config that is not YAML, naming the file and line',
    async () => {
      const path = join(testCluster().directory, 'broken.yaml');
      await writeFile(path, ['global:', '  user: a', '   password: b', 'vcenter: [', ''].join('\n'));
      const ccm = await testCluster().startCcm(ccmSpec(path), { label: 'vsphere-ccm', waitUntilHealthy: false });
      ccm.expectedRunning = false;
      const exit = await waitForExit(ccm);
      expect(exit.code).toBe(1);
      const errors = outputLines(ccm).filter((line) => line.startsWith('error: '));
      expect(errors.length).toBeGreaterThan(0);
      for (const line of errors) expect(line).toMatch(new RegExp(`^error: ${escapeRegExp(path)}:\\d+: YAML: `));
      expect(errors.some((line) => line.startsWith(`error: ${path}:2: `))).toBe(true);
      expect(stackTraceLines(outputLines(ccm))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'exits 1 on bad values, naming every problem with its file and line',
    async () => {
      const path = join(testCluster().directory, 'bad-values.yaml');
      await writeFile(path, ['global:', '  port: nope', '  insecureFlag: true', 'vcenter:', '  vc1:', '    server: vc1.example.com', ''].join('\n'));
      const ccm = await testCluster().startCcm(ccmSpec(path), { label: 'vsphere-ccm', waitUntilHealthy: false });
      ccm.expectedRunning = false;
      const exit = await waitForExit(ccm);
      expect(exit.code).toBe(1);
      const errors = outputLines(ccm).filter((line) => line.startsWith('error: '));
      expect(errors).toContain(`error: ${path}:2: global.port: must be a non-negative integer, not "nope"`);
      expect(errors.some((line) => line.startsWith(`error: ${path}:5: `) && line.includes('vCenter "vc1": user is not set'))).toBe(true);
      expect(stackTraceLines(outputLines(ccm))).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

async function waitForExit(ccm: CcmInstance): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return waitFor('the CCM to exit', () => ccm.process.exitStatus() ?? undefined, WAIT_MS, { describeContext: () => ccm.process.report() });
}
