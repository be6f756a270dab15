import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CCM_CORE_VERSION } from './version.js';

describe('CCM_CORE_VERSION', () => {
  it('matches packages/core/package.json', async () => {
    const packageJson = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(CCM_CORE_VERSION).toBe(packageJson.version);
  });
});
