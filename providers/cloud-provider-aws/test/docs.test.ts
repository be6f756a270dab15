import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_ANNOTATIONS } from '../src/annotations.js';
import { AWS_CLOUD_CONFIG_SCHEMA } from '../src/config/cloud-config-schema.js';
import { EC2_IAM_ACTIONS, ELB_IAM_ACTIONS, ELBV2_IAM_ACTIONS, renderIamPolicy } from '../src/docs/iam-actions.js';
import { renderAwsReference } from '../src/docs/render-aws-reference.js';

const docs = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs');
const regenerate = 'out of date: run `pnpm exec tsc -b providers/cloud-provider-aws && pnpm --filter @ccm/cloud-provider-aws run docs` and commit the result';

describe('generated docs', () => {
  it('docs/cloud-controller-manager.md matches the registries', () => {
    expect(readFileSync(join(docs, 'cloud-controller-manager.md'), 'utf8'), `docs/cloud-controller-manager.md is ${regenerate}`).toBe(renderAwsReference());
  });

  it('docs/iam-policy.json matches the ports', () => {
    expect(readFileSync(join(docs, 'iam-policy.json'), 'utf8'), `docs/iam-policy.json is ${regenerate}`).toBe(renderIamPolicy());
  });

  it('lists every annotation, config key and IAM action', () => {
    const reference = renderAwsReference();
    for (const annotation of ALL_ANNOTATIONS) expect(reference).toContain(`\`${annotation.key}\``);
    for (const section of Object.values(AWS_CLOUD_CONFIG_SCHEMA.sections)) for (const key of Object.values(section.keys)) expect(reference).toContain(`| \`${key.name}\` |`);
    expect(reference).toContain('`--cloud-provider`');
    const policy = JSON.parse(renderIamPolicy()) as { Statement: Array<{ Action: string[] }> };
    const listed = new Set(policy.Statement.flatMap((statement) => statement.Action));
    for (const action of [...Object.values(EC2_IAM_ACTIONS), ...Object.values(ELB_IAM_ACTIONS), ...Object.values(ELBV2_IAM_ACTIONS)]) expect(listed.has(action)).toBe(true);
    expect(listed.size).toBe(16 + 19 + 14);
  });
});
