#!/usr/bin/env node
// Writes docs/cloud-controller-manager.md from the typed registries (run after `tsc -b`).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderAzureReference } from './render-azure-reference.js';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const target = join(packageRoot, 'docs', 'cloud-controller-manager.md');
writeFileSync(target, renderAzureReference());
console.log(`wrote ${target}`);
