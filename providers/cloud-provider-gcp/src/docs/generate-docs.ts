#!/usr/bin/env node
// Writes docs/cloud-controller-manager.md from the typed registries.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderGcpReference } from './render-gcp-reference.js';

export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

writeFileSync(join(PACKAGE_ROOT, 'docs', 'cloud-controller-manager.md'), renderGcpReference());
console.log(`wrote ${join(PACKAGE_ROOT, 'docs')}/cloud-controller-manager.md`);
