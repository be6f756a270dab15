import { INSECURE_TLS_MESSAGE, silentLogger, type LogFields } from '@ccm/core/logging';
import { describe, expect, it } from 'vitest';
import { cloudConf, createHarness } from './helpers.js';

describe('tls-insecure', () => {
  it.each([
    ['tls-insecure = true\n', [{ message: INSECURE_TLS_MESSAGE, fields: { target: 'OpenStack (https://keystone.example:5000/v3)', setting: 'tls-insecure' } }]],
    ['tls-insecure = false\n', []],
    ['', []],
  ])('%j: a Warning at start-up only when certificate verification is off', async (extra, expected) => {
    const warnings: Array<{ message: string; fields: LogFields | undefined }> = [];
    const logger = { ...silentLogger, warn: (message: string, fields?: LogFields) => warnings.push({ message, fields }), child: () => logger };
    await createHarness({ config: cloudConf(extra), logger });
    expect(warnings.filter((warning) => warning.message === INSECURE_TLS_MESSAGE)).toEqual(expected);
  });
});
