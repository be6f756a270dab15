import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineFlagGroup } from './options/flag-definition.js';
import { CapturedOutput, TempDirectory, createTestRegistry, runCommand } from './test-support/command-harness.js';
import { runCloudControllerManager } from './run-cloud-controller-manager.js';
import { CCM_CORE_VERSION } from './version.js';

async function freePortForTest(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Startup failures and informational exits: no Kubernetes access is needed for any of them. */
describe('runCloudControllerManager: exit codes for bad input', () => {
  const directory = new TempDirectory();
  beforeEach(() => directory.create());
  afterEach(() => directory.remove());

  it('exits 2 on an unknown flag, with one error line and a hint', async () => {
    const result = await runCommand(['--cloud-provider=test', '--no-such-flag']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: "error: unknown flag: --no-such-flag\nRun 'test-ccm --help' for usage.\n" });
  });

  it('exits 2 on a bad value, naming the flag and the value', async () => {
    const result = await runCommand(['--node-monitor-period=5']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: invalid argument "5" for "--node-monitor-period" flag: time: missing unit in duration "5"\nRun \'test-ccm --help\' for usage.\n');
  });

  it('exits 2 on a positional argument', async () => {
    const result = await runCommand(['--leader-elect', 'false']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: "test-ccm" does not take any arguments, got ["false"]');
  });

  it('prints help and exits 0', async () => {
    const result = await runCommand(['--help']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Usage:\n  test-ccm [flags]');
    expect(result.stdout).toContain('\nGeneric flags:\n');
    expect(result.stdout).toMatch(/\n {6}--cloud-provider string +The provider for cloud services\./);
    expect(result.stdout).toMatch(/\n {2}-v, --v Level +number for the log level verbosity/);
    expect(result.stdout).toContain('(default 10s)');
    expect(result.stdout).not.toContain('--node-sync-period');
  });

  it('prints the version and exits 0', async () => {
    expect(await runCommand(['--version'])).toEqual({ code: 0, stdout: `test-ccm ${CCM_CORE_VERSION}\n`, stderr: '' });
    const raw = await runCommand(['--version=raw'], { version: '9.9.9' });
    expect(JSON.parse(raw.stdout)).toMatchObject({ gitVersion: '9.9.9', nodeVersion: process.version });
  });

  it('exits 2 listing every bad flag value, each naming its flag', async () => {
    const result = await runCommand(['--controllers=*,-bogus', '--leader-elect-resource-lock=endpoints', '--leader-elect-lease-duration=5s']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: --cloud-provider cannot be empty\n' +
        'error: --controllers: "bogus" is not in the list of known controllers\n' +
        'error: --leader-elect-resource-lock: Invalid value: "endpoints": resourceLock value must be "leases"\n' +
        'error: --leader-elect-lease-duration (5s) must be greater than --leader-elect-renew-deadline (10s)\n' +
        "Run 'test-ccm --help' for usage.\n",
    });
  });

  it.each([
    [['--secure-port=70000'], '"--secure-port" flag: 70000 must be between 0 and 65535'],
    [['--secure-port', '-1'], '"--secure-port" flag: -1 must be between 0 and 65535'],
    [['--node-monitor-period=-5s'], '"--node-monitor-period" flag: must be greater than zero (got -5s)'],
    [['--concurrent-node-syncs=0'], '"--concurrent-node-syncs" flag: must be greater than 0 (got 0)'],
    [['--cluster-cidr=bad'], '"--cluster-cidr" flag: invalid CIDR "bad" in --cluster-cidr'],
    [['--controllers=bogus'], '--controllers: "bogus" is not in the list of known controllers'],
    [['--leader-elect-resource-lock=endpoints'], '--leader-elect-resource-lock: Invalid value: "endpoints"'],
  ])('exits 2 for the bad value %j, naming the flag', async (argv, message) => {
    const result = await runCommand(['--cloud-provider=test', ...argv]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain("Run 'test-ccm --help' for usage.");
  });

  it('exits 1 for flags that contradict each other', async () => {
    const result = await runCommand(['--cloud-provider=test', '--leader-elect-lease-duration=10s', '--leader-elect-renew-deadline=10s']);
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'error: --leader-elect-lease-duration (10s) must be greater than --leader-elect-renew-deadline (10s)\n' });
  });

  it.each([
    [['--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,TLS_NOT_A_SUITE'], "error: --tls-cipher-suites: Cipher suite TLS_NOT_A_SUITE not supported or doesn't exist\n"],
    [['--tls-curve-preferences=CurveP256,secp256k1'], 'error: --tls-curve-preferences: unsupported curve "secp256k1" (use CurveP256, CurveP384, CurveP521, X25519, X25519MLKEM768 or their IDs 23, 24, 25, 29, 4588)\n'],
  ])('exits 1 with one line for an unknown TLS name (%j), as upstream refuses it', async (argv, stderr) => {
    const result = await runCommand(['--cloud-provider=test', ...argv]);
    expect(result).toEqual({ code: 1, stdout: '', stderr });
  });

  it('exits 1 for an unknown cloud provider, listing the known ones', async () => {
    const result = await runCommand(['--cloud-provider=aws']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: unknown cloud provider "aws" (this binary provides: "test")\n');
  });

  it('exits 1 with a clear message when there is no kubeconfig', async () => {
    const result = await runCommand(['--cloud-provider=test']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: no --kubeconfig given and not running in a cluster: set --kubeconfig or --master$/m);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 1 naming an unreadable kubeconfig', async () => {
    const path = `${directory.path}/missing-kubeconfig`;
    const result = await runCommand(['--cloud-provider=test', `--kubeconfig=${path}`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: cannot read kubeconfig ${path}: no such file`);
  });

  it('exits 1 naming a missing cloud config file', async () => {
    const kubeconfig = await directory.kubeconfig();
    const path = `${directory.path}/cloud.conf`;
    const result = await runCommand(['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, `--cloud-config=${path}`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`\nerror: ${path}: cannot read cloud config file: no such file or directory\n`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 1 naming file:line for a malformed cloud config, every problem on its own line', async () => {
    const kubeconfig = await directory.kubeconfig();
    const path = await directory.write('cloud.conf', '[Global]\nzone = a\nZone us-east-1\nrouts = true\n');
    const result = await runCommand(['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, `--cloud-config=${path}`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`\nerror: ${path}:3: missing '=' after variable "Zone"\nerror: ${path}:4: unknown key "routs" in section [Global]\n`);
  });

  it('logs cloud config errors as JSON with --logging-format=json', async () => {
    const kubeconfig = await directory.kubeconfig();
    const path = await directory.write('cloud.conf', '[Global]\nZone us-east-1\n');
    const result = await runCommand(['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, `--cloud-config=${path}`, '--logging-format=json']);
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n').map((line) => JSON.parse(line) as { msg: string; v?: number; caller: string });
    // component-base's error lines: no `v`, no `level`; the caller is ours.
    const errorLine = lines.find((line) => line.v === undefined);
    expect(errorLine).toMatchObject({ msg: `${path}:2: missing '=' after variable "Zone"`, caller: expect.stringMatching(/^app\/run-cloud-controller-manager\.ts:\d+$/) });
    expect(errorLine).not.toHaveProperty('level');
  });

  it('exits 1 without a cluster ID unless --allow-untagged-cloud', async () => {
    const kubeconfig = await directory.kubeconfig();
    const path = await directory.write('cloud.conf', '[Global]\ncluster-id =\n');
    const base = ['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, `--cloud-config=${path}`];
    const refused = await runCommand(base);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('error: no ClusterID found.  A ClusterID is required for the cloud provider to function properly.');

    const controller = new AbortController();
    controller.abort();
    const allowed = await runCommand([...base, '--allow-untagged-cloud', '--secure-port=0', '--leader-elect=false', '--controllers='], {
      signal: controller.signal,
      dependencies: { createKubeAccess: () => { throw new Error('not reached: the command stops before the controllers start'); } },
    });
    expect(allowed.stderr).toContain('Flag --allow-untagged-cloud has been deprecated');
    expect(allowed.stderr).toContain('detected a cluster without a ClusterID');
    expect(allowed.code).toBe(0);
  });

  it('exits 1 when routes would run without a valid --cluster-cidr', async () => {
    const kubeconfig = await directory.kubeconfig();
    const path = await directory.write('cloud.conf', '[Global]\nroutes\n');
    const result = await runCommand(['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, `--cloud-config=${path}`, '--allocate-node-cidrs']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'error: the route controller needs a valid --cluster-cidr (it runs because --configure-cloud-routes is true and the cloud provider supports routes; set --configure-cloud-routes=false or disable it with --controllers=*,-node-route-controller): --cluster-cidr is not set',
    );
  });

  it('exits 1 naming the address when the secure port is taken', async () => {
    const kubeconfig = await directory.kubeconfig();
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCommand(['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, '--bind-address=127.0.0.1', `--secure-port=${port}`]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`error: cannot serve HTTPS on 127.0.0.1:${port} (--bind-address, --secure-port): address already in use`);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('exits 1 with one line for an unreadable --authentication-kubeconfig or --authorization-kubeconfig', async () => {
    const kubeconfig = await directory.kubeconfig();
    for (const flag of ['authentication', 'authorization']) {
      const path = `${directory.path}/missing-${flag}.kubeconfig`;
      const result = await runCommand(['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, '--bind-address=127.0.0.1', '--secure-port=0', '--leader-elect=false', `--${flag}-kubeconfig=${path}`], {
        dependencies: { createKubeAccess: () => { throw new Error('not reached'); } },
        signal: AbortSignal.abort(),
      });
      // --secure-port=0: nothing is served, so the delegated auth kubeconfigs are not read.
      expect(result.code).toBe(0);
      const port = await freePortForTest();
      const serving = await runCommand(['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, '--bind-address=127.0.0.1', `--secure-port=${port}`, `--${flag}-kubeconfig=${path}`]);
      expect(serving.code).toBe(1);
      expect(serving.stderr).toContain(`error: failed to get delegated ${flag} kubeconfig (--${flag}-kubeconfig): cannot read kubeconfig ${path}: no such file\n`);
      expect(serving.stderr.split('\n').filter((line) => line.startsWith('error:'))).toHaveLength(1);
    }
  });

  it('exits 2 for a * inside an always-allow path and a blank request header name', async () => {
    const paths = await runCommand(['--cloud-provider=test', '--authorization-always-allow-paths=/healthz,/de*bug']);
    expect(paths.code).toBe(2);
    expect(paths.stderr).toContain('--authorization-always-allow-paths');
    expect(paths.stderr).toContain('only trailing * allowed in "/de*bug"');
    const headers = await runCommand(['--cloud-provider=test', '--requestheader-username-headers=x-remote-user,']);
    expect(headers.code).toBe(2);
    expect(headers.stderr).toContain('empty value in "requestheader-username-headers"');
  });

  it('logs a line for every ignored flag that is set', async () => {
    const controller = new AbortController();
    controller.abort();
    const kubeconfig = await directory.kubeconfig();
    const result = await runCommand(
      ['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, '--secure-port=0', '--leader-elect=false', '--feature-gates=A=true'],
      { signal: controller.signal, dependencies: { createKubeAccess: () => { throw new Error('not reached'); } } },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('"Flag --feature-gates is accepted for compatibility but has no effect: no feature gate changes');
  });

  describe('--enable-leader-migration with --leader-migration-config (upstream LeaderMigrationOptions.ApplyTo)', () => {
    it.each([
      ['a missing file', undefined, 'error: --leader-migration-config: unable to read leader migration configuration from "MISSING": ENOENT'],
      ['YAML that does not parse', 'kind: [', 'error: --leader-migration-config FILE: not valid YAML: line 1, column'],
      ['a file without kind', 'apiVersion: controllermanager.config.k8s.io/v1\nleaderName: x\n', "error: --leader-migration-config FILE: field kind: missing ('Kind' is required)"],
      ['another kind', 'apiVersion: controllermanager.config.k8s.io/v1\nkind: KubeControllerManagerConfiguration\n', 'error: --leader-migration-config FILE: field kind: "KubeControllerManagerConfiguration" is not LeaderMigrationConfiguration'],
      ['an unknown version', 'apiVersion: controllermanager.config.k8s.io/v2\nkind: LeaderMigrationConfiguration\n', 'error: --leader-migration-config FILE: field apiVersion: "controllermanager.config.k8s.io/v2" is not one of'],
      ['a name that is not a string', 'apiVersion: controllermanager.config.k8s.io/v1\nkind: LeaderMigrationConfiguration\nleaderName: x\nresourceLock: leases\ncontrollerLeaders:\n  - name: [route]\n    component: "*"\n', 'error: --leader-migration-config FILE: field controllerLeaders[0].name: expected a string, got a list'],
      ['an empty leaderName and component', 'apiVersion: controllermanager.config.k8s.io/v1\nkind: LeaderMigrationConfiguration\nresourceLock: leases\ncontrollerLeaders:\n  - name: route\n', 'error: --leader-migration-config FILE: invalid leader migration configuration: leaderName: Required value: leaderName must be set for LeaderMigrationConfiguration; controllerLeaders[0].component: Required value: component must be set\n'],
    ])('exits 1 with one line naming the file for %s', async (_case, content, expected) => {
      const kubeconfig = await directory.kubeconfig();
      const path = content === undefined ? `${directory.path}/missing.yaml` : await directory.write('migration.yaml', content);
      const result = await runCommand(['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, '--secure-port=0', '--enable-leader-migration', `--leader-migration-config=${path}`]);
      expect(result.code).toBe(1);
      const lines = result.stderr.split('\n').filter((line) => line.startsWith('error: '));
      expect(lines).toHaveLength(1);
      expect(result.stderr).toContain(expected.replace('MISSING', path).replace('FILE', path));
    });

    it('reads the file also without --leader-elect (as upstream), then runs every controller', async () => {
      const kubeconfig = await directory.kubeconfig();
      const bad = await directory.write('bad.yaml', 'kind: LeaderMigrationConfiguration\n');
      const failed = await runCommand(['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, '--secure-port=0', '--leader-elect=false', '--enable-leader-migration', `--leader-migration-config=${bad}`]);
      expect(failed.code).toBe(1);
      const good = await directory.write(
        'good.yaml',
        'apiVersion: controllermanager.config.k8s.io/v1beta1\nkind: LeaderMigrationConfiguration\nleaderName: migration\nresourceLock: leases\nunknownField: ignored\ncontrollerLeaders:\n  - name: route\n    component: kube-controller-manager\n  - name: ipam\n    component: kube-controller-manager\n',
      );
      const controller = new AbortController();
      controller.abort();
      const ran = await runCommand(['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, '--secure-port=0', '--leader-elect=false', '--enable-leader-migration', `--leader-migration-config=${good}`], {
        signal: controller.signal,
      });
      expect(ran.code).toBe(0);
      expect(ran.stderr).toContain('leader migration: the configuration names controllers this binary does not have; they are ignored');
      expect(ran.stderr).toContain('"ipam"');
      expect(ran.stderr).toContain('leader migration is inactive without --leader-elect; every enabled controller runs');
    });
  });

  it('parses provider flags, validates them with the rest and hands them to the bin', async () => {
    const providerFlags = defineFlagGroup(
      'test provider',
      { endpoint: { name: 'test-endpoint', type: 'string', default: 'https://cloud.invalid', help: 'The test cloud API.' } },
      { validate: (values) => (values.endpoint.startsWith('https://') ? [] : ['--test-endpoint must be an https URL']) },
    );
    const help = await runCommand(['-h'], { additionalFlags: [providerFlags] });
    expect(help.stdout).toMatch(/\nTest provider flags:\n\n {6}--test-endpoint string +The test cloud API\. \(default "https:\/\/cloud\.invalid"\)\n/);

    const invalid = await runCommand(['--cloud-provider=test', '--test-endpoint=http://x'], { additionalFlags: [providerFlags] });
    expect(invalid).toMatchObject({ code: 1, stderr: 'error: --test-endpoint must be an https URL\n' });

    const seen: string[] = [];
    const controller = new AbortController();
    controller.abort();
    const kubeconfig = await directory.kubeconfig();
    const ran = await runCommand(['--cloud-provider=test', `--kubeconfig=${kubeconfig}`, '--test-endpoint=https://api.test', '--secure-port=0', '--leader-elect=false'], {
      additionalFlags: [providerFlags],
      onFlagsParsed: (flags) => void seen.push(flags.valuesOf(providerFlags).endpoint),
      signal: controller.signal,
    });
    expect(ran.code).toBe(0);
    expect(seen).toEqual(['https://api.test']);
  });

  it('writes to process streams by default (bins only pass argv)', async () => {
    const stdout = new CapturedOutput();
    const code = await runCloudControllerManager({ commandName: 'x-ccm', registry: createTestRegistry(), argv: ['--version'], stdout });
    expect(code).toBe(0);
    expect(stdout.text).toBe(`x-ccm ${CCM_CORE_VERSION}\n`);
  });
});
