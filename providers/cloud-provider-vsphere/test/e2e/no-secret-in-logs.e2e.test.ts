/**
 * No secret in any log, vSphere against the vCenter simulator: the CCM binary at `-v=10` with
 * the vCenter password in a Secret (success path: a node initialized), then with a wrong
 * password in the cloud config (vCenter refuses the login). Every line the CCM wrote is searched
 * for both passwords as written, base64- and URL-encoded.
 * Needs Go >= the go line of e2e/vcsim/go.mod and the built CCM (see vsphere-ccm.e2e.test.ts).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findSecretLeaks } from '@ccm/testing/bad-input';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { isInitialized, registerNode } from '../../../../e2e/src/harness/node-registration.js';
import { TestCluster } from '../../../../e2e/src/harness/test-cluster.js';
import { outputLines } from '../support/ccm-log-assertions.js';
import { buildVcsim, startVcsim, vcsimSuite, type Vcsim } from '../support/vcsim.js';
import { VSPHERE_CCM_BIN } from '../conformance/vsphere-driver.js';

const SECRET_NAMESPACE = 'kube-system';
const SECRET_NAME = 'vsphere-cloud-secret';
const PLANTED = { secretPassword: 'Secret-Passw0rd/+=:@!', wrongPassword: 'Wr0ng-Passw0rd&x=y%z' };

vcsimSuite('vSphere CCM at -v=10 writes no password (vCenter simulator)', () => {
  let vcsim: Vcsim | undefined;
  let cluster: TestCluster | undefined;

  beforeAll(async () => {
    if (!existsSync(VSPHERE_CCM_BIN)) throw new Error(`the vSphere CCM is not built: ${VSPHERE_CCM_BIN} is missing (run \`pnpm exec turbo run build\`)`);
    await buildVcsim();
  }, 300_000);

  beforeEach(async () => {
    vcsim = await startVcsim({ password: PLANTED.secretPassword });
    cluster = await TestCluster.start({ manifestsOverlay: 'vsphere' });
  }, 240_000);

  afterEach(async () => {
    const stopping = [cluster?.close(), vcsim?.stop()];
    cluster = undefined;
    vcsim = undefined;
    await Promise.allSettled(stopping);
  });

  async function config(simulator: Vcsim, testCluster: TestCluster, credentials: string[]): Promise<string> {
    const server = new URL(simulator.url);
    const path = join(testCluster.directory, 'vsphere.yaml');
    const lines = ['global:', ...credentials, `  caFile: ${simulator.caFile}`, 'vcenter:', '  vcsim:', `    server: ${server.hostname}`, `    port: ${server.port}`, ''];
    await writeFile(path, lines.join('\n'), { mode: 0o600 });
    return path;
  }

  it('password from a Secret, node initialized; then a wrong password refused', async () => {
    const simulator = vcsim!;
    const testCluster = cluster!;
    const hostname = new URL(simulator.url).hostname;
    const encode = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
    await testCluster.client.request('POST', `/api/v1/namespaces/${SECRET_NAMESPACE}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: SECRET_NAME, namespace: SECRET_NAMESPACE },
      type: 'Opaque',
      data: { [`${hostname}.username`]: encode(simulator.username), [`${hostname}.password`]: encode(PLANTED.secretPassword) },
    });
    await simulator.admin.createVm({ name: 'secret-node-1' });
    const good = await config(simulator, testCluster, [`  secretName: ${SECRET_NAME}`, `  secretNamespace: ${SECRET_NAMESPACE}`]);
    const first = await testCluster.startCcm({ command: process.execPath, args: [VSPHERE_CCM_BIN, '--cloud-provider=vsphere', `--cloud-config=${good}`] }, { label: 'vsphere-secret', extraFlags: ['-v=10'] });
    await registerNode(testCluster.client, { name: 'secret-node-1' });
    await testCluster.waitFor('secret-node-1 initialized', async () => isInitialized(await testCluster.client.getNode('secret-node-1')));
    await first.stop(10_000);

    const wrong = await config(simulator, testCluster, [`  user: ${JSON.stringify(simulator.username)}`, `  password: ${JSON.stringify(PLANTED.wrongPassword)}`]);
    const second = await testCluster.startCcm({ command: process.execPath, args: [VSPHERE_CCM_BIN, '--cloud-provider=vsphere', `--cloud-config=${wrong}`] }, { label: 'vsphere-wrong', extraFlags: ['-v=10'] });
    await registerNode(testCluster.client, { name: 'secret-node-2' });
    await testCluster.waitFor('the refused login', () => outputLines(second).some((line) => line.includes('refused the login')));

    const output = [...outputLines(first), ...outputLines(second)].join('\n');
    expect(output).toMatch(/Initializing node secret-node-1/);
    // The harness keeps the last 256 KiB of output: all of it must be there to be searched.
    expect(output).not.toContain('earlier characters dropped');
    expect(findSecretLeaks(output, PLANTED)).toEqual([]);
  }, 90_000);
});
