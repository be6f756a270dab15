#!/usr/bin/env node
// Writes docs/cloud-controller-manager.md and docs/iam-policy.json from the typed registries.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderIamPolicy } from './iam-actions.js';
import { renderAwsReference } from './render-aws-reference.js';

export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

writeFileSync(join(PACKAGE_ROOT, 'docs', 'cloud-controller-manager.md'), renderAwsReference());
writeFileSync(join(PACKAGE_ROOT, 'docs', 'iam-policy.json'), renderIamPolicy());
console.log(`wrote ${join(PACKAGE_ROOT, 'docs')}/cloud-controller-manager.md and iam-policy.json`);
