/**
 * The azure-cloud-controller-manager binary with a bad `azure.json`: exit 1 with one line per
 * problem naming the file, line and key, before touching the API server; the secret is never
 * echoed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../dist/cloud-controller-manager/main.js', import.meta.url));
const built = existsSync(BIN);
if (!built && process.env['CI'] === 'true') throw new Error(`${BIN} is missing: build first (npx -y pnpm@10.34.8 build)`);
if (!built) console.warn(`SKIPPING the azure-cloud-controller-manager binary tests: ${BIN} is missing; build first (npx -y pnpm@10.34.8 build)`);

const directory = mkdtempSync(join(tmpdir(), 'azure-ccm-bad-config-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function run(configText: string): { status: number | null; output: string; configPath: string } {
  const configPath = join(directory, `azure-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(configPath, configText);
  const kubeconfig = join(directory, 'kubeconfig');
  writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {token: x}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n');
  const result = spawnSync(process.execPath, [BIN, '--cloud-provider=azure', `--cloud-config=${configPath}`, `--kubeconfig=${kubeconfig}`, '--leader-elect=false', '--secure-port=0'], { encoding: 'utf8', timeout: 90_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}`, configPath };
}

// Loading the Azure SDKs makes a start take seconds on a busy machine.
describe.skipIf(!built)('azure-cloud-controller-manager with a bad azure.json', { timeout: 120_000 }, () => {
  it('exits 1 naming the file, line and key of every problem, without echoing the secret', () => {
    const { status, output, configPath } = run('{\n  "tenantId": "t",\n  "vmType": 7,\n  "aadClientSecret": "SHOULD-NOT-LEAK"\n}\n');
    expect(status).toBe(1);
    expect(output).toContain(`${configPath}:3: key "vmType": must be a string, got 7`);
    expect(output).toContain(`${configPath}: key "resourceGroup" is required`);
    expect(output).not.toContain('SHOULD-NOT-LEAK');
  });

  it('exits 1 naming the file, line and key of contradictory or unusable credential keys, without echoing the password', () => {
    const base = '"subscriptionId": "s", "resourceGroup": "rg", "location": "eastus", "cloudConfigType": "file", "tenantId": "t", "aadClientId": "c"';
    const contradictory = run(`{\n  ${base},\n  "aadClientSecret": "SHOULD-NOT-LEAK",\n  "userAssignedIdentityID": "u"\n}\n`);
    expect(contradictory.status).toBe(1);
    expect(contradictory.output).toContain(`${contradictory.configPath}:4: key "userAssignedIdentityID": is set but "useManagedIdentityExtension" is not true`);
    const none = run(`{\n  ${base}\n}\n`);
    expect(none.status).toBe(1);
    expect(none.output).toContain(`${none.configPath}: no credential: set "aadClientSecret", "aadClientCertPath"`);
    const missingCertificate = run(`{\n  ${base},\n  "aadClientCertPath": "/nonexistent/sp.pfx",\n  "aadClientCertPassword": "SHOULD-NOT-LEAK-EITHER"\n}\n`);
    expect(missingCertificate.status).toBe(1);
    expect(missingCertificate.output).toContain(`${missingCertificate.configPath}:3: key "aadClientCertPath": cannot read /nonexistent/sp.pfx: ENOENT`);
    for (const { output } of [contradictory, none, missingCertificate]) {
      expect(output).not.toContain('SHOULD-NOT-LEAK');
    }
  });

  it('exits 1 on a podIP backend pool, naming the file, line and key', () => {
    const { status, output, configPath } = run('{\n  "subscriptionId": "s", "resourceGroup": "rg", "location": "eastus",\n  "loadBalancerBackendPoolConfigurationType": "podIP"\n}\n');
    expect(status).toBe(1);
    expect(output).toContain(`${configPath}:3: key "loadBalancerBackendPoolConfigurationType": podIP (pod IPs in the backend pool) is not supported by this provider; use nodeIPConfiguration or nodeIP`);
  });

  it('exits 1 on malformed JSON, naming the line', () => {
    const { status, output, configPath } = run('{\n  "tenantId": "t",\n  "location": \n}\n');
    expect(status).toBe(1);
    expect(output).toContain(`${configPath}:3: malformed JSON`);
  });
});
