/**
 * The CCM binaries on a handful of representative bad files per format: exit code 1 within the
 * time limit, nothing on stdout, and on stderr exactly one `error:` line naming the file (and
 * its line where the format has lines), besides the ordinary klog lines; never a stack trace.
 * The thousands of generated cases run in process (`*-corpus.test.ts`); this proves the binary
 * turns what the parsers throw into that one line.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_CCM_BIN } from '@ccm/cloud-provider-sandbox/conformance';
import { AWS_CCM_BIN } from '@ccm/cloud-provider-aws/conformance';
import { VSPHERE_CCM_BIN } from '@ccm/cloud-provider-vsphere/conformance';
import { GCP_CCM_BIN } from '@ccm/cloud-provider-gcp/conformance';
import { killWithTestRunner } from '../harness/ccm-process.js';

const TIME_LIMIT_MS = 30_000;
// klog's header: `Lmmdd hh:mm:ss.uuuuuu threadid file:line] ` (k8s.io/klog/v2 klog.go formatHeader).
const KLOG_LINE = /^[IWE]\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+ [^\s:\]]+:\d+\] /;
const BINARY = Buffer.from([0x5b, 0x47, 0x6c, 0x6f, 0x62, 0x61, 0x6c, 0x5d, 0x0a, 0xff, 0xfe, 0x00, 0x01, 0x9c, 0x0a, 0x7a]);

interface BadFile {
  name: string;
  content: string | Buffer;
  /** `file:line` expected in the error line; undefined when the problem is the whole file. */
  line?: number;
  /** Another fragment the error line must contain. */
  mentions?: string;
}

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

const directory = mkdtempSync(join(tmpdir(), 'ccm-bad-files-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function write(file: BadFile): string {
  const path = join(directory, file.name);
  writeFileSync(path, file.content);
  return path;
}

function run(bin: string, args: string[]): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    // No AWS credentials or IMDS from the machine: config problems must be found without them.
    const child = spawn(process.execPath, [bin, ...args], { cwd: directory, env: { PATH: process.env['PATH'] ?? '', AWS_EC2_METADATA_DISABLED: 'true' } });
    killWithTestRunner(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIME_LIMIT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, elapsedMs: performance.now() - started });
    });
  });
}

/** Checks one outcome; returns what is wrong with it, or undefined. */
function problemWith(outcome: Outcome, path: string, file: BadFile): string | undefined {
  const describe = `exit ${outcome.code ?? outcome.signal} after ${outcome.elapsedMs.toFixed(0)} ms\nstdout: ${outcome.stdout.slice(0, 500)}\nstderr: ${outcome.stderr.slice(0, 2000)}`;
  if (outcome.signal === 'SIGKILL') return `did not exit within ${TIME_LIMIT_MS} ms\n${describe}`;
  if (outcome.code !== 1) return `exit code ${outcome.code}, not 1\n${describe}`;
  if (outcome.stdout !== '') return `wrote to stdout\n${describe}`;
  if (/\n\s+at .+[:(]/.test(outcome.stderr)) return `stack trace on stderr\n${describe}`;
  const lines = outcome.stderr.split('\n').filter((line) => line !== '');
  const errors = lines.filter((line) => !KLOG_LINE.test(line));
  if (errors.length !== 1) return `${errors.length} lines besides the klog lines, not 1\n${describe}`;
  const [error] = errors as [string];
  if (!error.startsWith('error: ')) return `the line does not start with "error: "\n${describe}`;
  const place = file.line === undefined ? path : `${path}:${file.line}`;
  // `file:7: ...` (cloud configs) or `file: ... line 7, column 3: ...` (YAML parsers).
  const named = error.includes(place) || (file.line !== undefined && error.includes(path) && new RegExp(`\\bline ${file.line}\\b`).test(error));
  if (!named) return `the line does not name ${place}\n${describe}`;
  if (file.mentions !== undefined && !error.includes(file.mentions)) return `the line does not mention ${JSON.stringify(file.mentions)}\n${describe}`;
  return undefined;
}

async function checkAll(bin: string, files: BadFile[], argsFor: (path: string) => string[]): Promise<void> {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`npx -y pnpm@10.34.8 build\` at the repository root`);
  const failures: string[] = [];
  // Two at a time: each is a Node start-up on a shared machine.
  for (let index = 0; index < files.length; index += 2) {
    await Promise.all(
      files.slice(index, index + 2).map(async (file) => {
        const path = write(file);
        const problem = problemWith(await run(bin, argsFor(path)), path, file);
        if (problem !== undefined) failures.push(`${file.name}: ${problem}`);
      }),
    );
  }
  expect(failures).toEqual([]);
}

const GOOD_KUBECONFIG = 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n';
const HUGE = 2 * 1024 * 1024;

describe('the CCM binaries on bad files', () => {
  const kubeconfig = write({ name: 'good.kubeconfig', content: GOOD_KUBECONFIG });
  const sandboxConfig = write({ name: 'good-sandbox.conf', content: '[Global]\nurl = http://127.0.0.1:1\ncluster-id = bad-input\n' });
  const sandboxArgs = (extra: string[]): string[] => ['--cloud-provider=sandbox', `--cloud-config=${sandboxConfig}`, `--kubeconfig=${kubeconfig}`, '--configure-cloud-routes=false', ...extra];

  it('sandbox cloud config (gcfg)', async () => {
    await checkAll(
      SANDBOX_CCM_BIN,
      [
        { name: 'sandbox-truncated.conf', content: '[Global]\nurl = http://127.0.0.1:1\ncluster-id = x\n[LoadBal', line: 4 },
        { name: 'sandbox-binary.conf', content: BINARY, line: 2, mentions: 'not a text file' },
        { name: 'sandbox-huge.conf', content: `[Global]\nurl = http://127.0.0.1:1\nzone = ${'a'.repeat(HUGE)}\n`, mentions: 'bytes' },
        { name: 'sandbox-wrong-type.conf', content: '[Global]\nurl = http://127.0.0.1:1\ncluster-id = x\nretries = many\n', line: 4, mentions: 'retries' },
        { name: 'sandbox-random.conf', content: '[Global]\nurl = http://127.0.0.1:1\ncluster-id = x\n}{ "=;\n', line: 4 },
      ],
      (path) => ['--cloud-provider=sandbox', `--cloud-config=${path}`, `--kubeconfig=${kubeconfig}`, '--configure-cloud-routes=false'],
    );
  }, 240_000);

  it('AWS cloud config (gcfg)', async () => {
    await checkAll(
      AWS_CCM_BIN,
      [
        { name: 'aws-truncated.conf', content: '[Global]\nRegion = us-east-1\n[ServiceOverride "1', line: 3 },
        { name: 'aws-binary.conf', content: BINARY, line: 2, mentions: 'not a text file' },
        { name: 'aws-huge.conf', content: `[Global]\nRegion = us-east-1\nZone = ${'a'.repeat(HUGE)}\n`, mentions: 'bytes' },
        { name: 'aws-wrong-type.conf', content: '[Global]\nRegion = us-east-1\nDisableSecurityGroupIngress = maybe\n', line: 3, mentions: 'DisableSecurityGroupIngress' },
      ],
      (path) => ['--cloud-provider=aws', `--cloud-config=${path}`, `--kubeconfig=${kubeconfig}`, '--configure-cloud-routes=false'],
    );
  }, 240_000);

  // Azure (azure.json) and OpenStack (cloud.conf, clouds.yaml) binaries: their own
  // test/e2e/bad-cloud-config.e2e.test.ts.
  it('GCP cloud config (gcfg)', async () => {
    const global = '[global]\nproject-id = p\nnetwork-name = n\nlocal-zone = us-central1-a\n';
    await checkAll(
      GCP_CCM_BIN,
      [
        { name: 'gce-truncated.conf', content: `${global}[glob`, line: 5 },
        { name: 'gce-binary.conf', content: BINARY, line: 2, mentions: 'not a text file' },
        { name: 'gce-huge.conf', content: `${global}node-tags = ${'a'.repeat(HUGE)}\n`, mentions: 'bytes' },
        { name: 'gce-wrong-type.conf', content: `${global}multizone = maybe\n`, line: 5, mentions: 'multizone' },
      ],
      (path) => ['--cloud-provider=gce', `--cloud-config=${path}`, `--kubeconfig=${kubeconfig}`, '--configure-cloud-routes=false'],
    );
  }, 240_000);

  it('vSphere cloud config (INI and YAML)', async () => {
    await checkAll(
      VSPHERE_CCM_BIN,
      [
        { name: 'vsphere-truncated.conf', content: '[Global]\nuser = u\npassword = p\n[VirtualCenter "vc"]\ndatacenters = dc\n[Labels', line: 6 },
        { name: 'vsphere-wrong-type.conf', content: '[Global]\nuser = u\npassword = p\nport = https\n[VirtualCenter "vc"]\ndatacenters = dc\n', line: 4, mentions: 'port' },
        { name: 'vsphere-binary.yaml', content: Buffer.concat([Buffer.from('global:\n'), BINARY]), line: 3, mentions: 'not a text file' },
        { name: 'vsphere-duplicated-key.yaml', content: 'global:\n  user: u\n  password: p\n  user: v\nvcenter:\n  vc:\n    server: vc\n    datacenters: dc\n', line: 4 },
        { name: 'vsphere-truncated.yaml', content: 'global:\n  user: u\nvcenter:\n  vc: {server: vc, datacenters: [dc', line: 4 },
        { name: 'vsphere-wrong-type.yaml', content: 'global:\n  user: u\n  password: p\n  port: [443]\nvcenter:\n  vc:\n    server: vc\n    datacenters: dc\n', line: 4, mentions: 'port' },
      ],
      (path) => ['--cloud-provider=vsphere', `--cloud-config=${path}`, `--kubeconfig=${kubeconfig}`, '--configure-cloud-routes=false'],
    );
  }, 240_000);

  it('kubeconfig (--kubeconfig)', async () => {
    await checkAll(
      SANDBOX_CCM_BIN,
      [
        { name: 'truncated.kubeconfig', content: GOOD_KUBECONFIG.slice(0, 60), line: 3 },
        { name: 'binary.kubeconfig', content: Buffer.concat([Buffer.from('apiVersion: v1\n'), BINARY]), line: 3 },
        { name: 'duplicated-key.kubeconfig', content: `current-context: y\n${GOOD_KUBECONFIG}`, line: 7 },
        { name: 'wrong-type.kubeconfig', content: GOOD_KUBECONFIG.replace('current-context: x', 'current-context: [x]'), mentions: 'current-context' },
      ],
      (path) => ['--cloud-provider=sandbox', `--cloud-config=${sandboxConfig}`, `--kubeconfig=${path}`, '--configure-cloud-routes=false'],
    );
  }, 240_000);

  it('authentication and authorization kubeconfigs', async () => {
    await checkAll(
      SANDBOX_CCM_BIN,
      [
        { name: 'authn-truncated.kubeconfig', content: GOOD_KUBECONFIG.slice(0, 60), line: 3, mentions: '--authentication-kubeconfig' },
        { name: 'authz-binary.kubeconfig', content: Buffer.concat([Buffer.from('apiVersion: v1\n'), BINARY]), line: 3, mentions: '--authorization-kubeconfig' },
      ],
      (path) => sandboxArgs([path.includes('authn') ? `--authentication-kubeconfig=${path}` : `--authorization-kubeconfig=${path}`]),
    );
  }, 240_000);

  it('leader migration configuration', async () => {
    const valid = 'apiVersion: controllermanager.config.k8s.io/v1\nkind: LeaderMigrationConfiguration\nleaderName: lm\ncontrollerLeaders:\n  - name: route\n    component: "*"\n';
    await checkAll(
      SANDBOX_CCM_BIN,
      [
        { name: 'lm-truncated.yaml', content: `${valid}  - name: [ser`, line: 7 },
        { name: 'lm-duplicated-key.yaml', content: `${valid}leaderName: again\n`, line: 7 },
        { name: 'lm-wrong-type.yaml', content: valid.replace('leaderName: lm', 'leaderName: [lm]'), mentions: 'leaderName' },
        { name: 'lm-huge.yaml', content: `${valid}${'#'.repeat(HUGE)}\n`, mentions: 'characters long' },
      ],
      (path) => sandboxArgs(['--enable-leader-migration', `--leader-migration-config=${path}`]),
    );
  }, 240_000);
});
