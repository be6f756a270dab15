import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INSECURE_TLS_MESSAGE, silentLogger, type LogFields } from '@ccm/core/logging';
import { afterAll, describe, expect, it } from 'vitest';
import { cloudConf, createHarness } from './helpers.js';

const directory = mkdtempSync(join(tmpdir(), 'insecure-tls-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function cloudsYaml(verify: boolean): string {
  const path = join(directory, `clouds-${verify}.yaml`);
  writeFileSync(
    path,
    `clouds:\n  mycloud:\n    region_name: RegionOne\n    verify: ${verify}\n    auth:\n      auth_url: https://from-clouds:5000/v3\n      username: u\n      password: p\n      project_name: k8s\n      user_domain_name: Default\n      project_domain_name: Default\n`,
  );
  return `[Global]\nuse-clouds=true\nclouds-file=${path}\ncloud=mycloud\n`;
}

describe('turning certificate verification off', () => {
  it.each([
    ['tls-insecure = true', cloudConf('tls-insecure = true\n'), [{ target: 'OpenStack (https://keystone.example:5000/v3)', setting: 'tls-insecure' }]],
    ['tls-insecure = false', cloudConf('tls-insecure = false\n'), []],
    ['no setting', cloudConf(), []],
    ['clouds.yaml verify: false', cloudsYaml(false), [{ target: 'OpenStack (https://from-clouds:5000/v3)', setting: 'tls-insecure or clouds.yaml verify: false' }]],
    ['clouds.yaml verify: true', cloudsYaml(true), []],
  ])('%s: a Warning at start-up only when verification is off', async (_name, config, expected) => {
    const warnings: Array<{ message: string; fields: LogFields | undefined }> = [];
    const logger = { ...silentLogger, warn: (message: string, fields?: LogFields) => warnings.push({ message, fields }), child: () => logger };
    await createHarness({ config, logger });
    expect(warnings.filter((warning) => warning.message === INSECURE_TLS_MESSAGE).map((warning) => warning.fields)).toEqual(expected);
  });
});
