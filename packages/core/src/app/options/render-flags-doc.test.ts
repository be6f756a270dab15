import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS } from './cloud-controller-manager-flags.js';
import type { FlagDefinition } from './flag-definition.js';
import { renderFlagsDoc } from './render-flags-doc.js';

const DOC_PATH = fileURLToPath(new URL('../../../../../docs/flags.md', import.meta.url));

describe('docs/flags.md', () => {
  it('is generated from the flag registry (run with UPDATE_FLAGS_DOC=1 to regenerate)', async () => {
    const expected = renderFlagsDoc();
    if (process.env.UPDATE_FLAGS_DOC === '1') await writeFile(DOC_PATH, expected);
    const actual = await readFile(DOC_PATH, 'utf8').catch(() => '');
    expect(actual, 'docs/flags.md is out of date: run `UPDATE_FLAGS_DOC=1 pnpm exec vitest run packages/core/src/app/options/render-flags-doc.test.ts`').toBe(expected);
  });

  it('documents every flag with its type, default and status', () => {
    const doc = renderFlagsDoc();
    for (const group of CLOUD_CONTROLLER_MANAGER_FLAG_GROUPS) {
      for (const definition of Object.values(group.flags) as FlagDefinition[]) expect(doc).toContain(`\`--${definition.name}\``);
    }
    expect(doc).toContain('| `--cloud-provider` | string | (empty) | supported | The provider for cloud services. Empty string for no provider. |');
    expect(doc).toContain('| `--leader-elect-lease-duration` | duration | `15s` | supported |');
    expect(doc).toContain('| `--controllers` | strings | `[*]` | supported |');
    expect(doc).toContain('| `-v`, `--v` | Level | `0` | supported |');
    expect(doc).toMatch(/\| `--authentication-kubeconfig` \| string \| \(empty\) \| supported \|/);
    expect(doc).toContain('| `--authorization-always-allow-paths` | strings | `[/healthz,/readyz,/livez]` | supported |');
    expect(doc).toContain('| `--node-sync-period` | duration | `0s` | deprecated: This flag is currently no-op and will be deleted. |');
    expect(doc).toContain('## Secure serving flags');
  });
});
