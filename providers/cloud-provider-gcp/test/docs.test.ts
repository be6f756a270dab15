import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_ANNOTATIONS } from '../src/annotations.js';
import { GCE_CLOUD_CONFIG_SCHEMA } from '../src/config/cloud-config-schema.js';
import { computePermissions } from '../src/docs/iam-permissions.js';
import { renderGcpReference } from '../src/docs/render-gcp-reference.js';

const docs = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs');
const regenerate = 'out of date: run `pnpm exec tsc -b providers/cloud-provider-gcp && pnpm --filter @ccm/cloud-provider-gcp run docs` and commit the result';

describe('generated docs', () => {
  it('docs/cloud-controller-manager.md matches the registries', () => {
    expect(readFileSync(join(docs, 'cloud-controller-manager.md'), 'utf8'), `docs/cloud-controller-manager.md is ${regenerate}`).toBe(renderGcpReference());
  });

  it('lists every annotation with its status, every config key and every IAM permission', () => {
    const reference = renderGcpReference();
    for (const annotation of ALL_ANNOTATIONS) expect(reference).toContain(`| \`${annotation.key}\` | ${annotation.appliesTo} |`);
    for (const section of Object.values(GCE_CLOUD_CONFIG_SCHEMA.sections)) for (const key of Object.values(section.keys)) expect(reference).toContain(`| \`${key.name}\` |`);
    for (const permission of computePermissions()) expect(reference).toContain(`- \`${permission}\``);
    expect(ALL_ANNOTATIONS.filter((annotation) => annotation.status !== 'supported').map((annotation) => annotation.key)).toEqual([]);
  });
});
