import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VSPHERE_CONFIG_SECTIONS, type ConfigKeySpec } from '../config/config-keys.js';
import { renderVsphereReference } from './render-vsphere-reference.js';

const DOC = new URL('../../docs/cloud-controller-manager.md', import.meta.url);

describe('docs/cloud-controller-manager.md', () => {
  it('is up to date with the key registry (run `pnpm --filter @ccm/cloud-provider-vsphere build && pnpm --filter @ccm/cloud-provider-vsphere docs`)', () => {
    expect(readFileSync(DOC, 'utf8')).toBe(renderVsphereReference());
  });

  it('documents every key in both formats', () => {
    const text = renderVsphereReference();
    for (const section of Object.values(VSPHERE_CONFIG_SECTIONS)) {
      for (const key of Object.values(section.keys) as ConfigKeySpec[]) {
        expect(text).toContain(`| \`${key.yaml}\` |`);
        expect(text).toContain(`| \`${key.ini}\` |`);
      }
    }
  });
});
