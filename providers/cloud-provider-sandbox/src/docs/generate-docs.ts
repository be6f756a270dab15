#!/usr/bin/env node
// Writes docs/cloud-controller-manager.md from the typed registries (run after the build).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderSandboxReference } from './render-sandbox-reference.js';

const target = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'cloud-controller-manager.md');
writeFileSync(target, renderSandboxReference());
console.log(`wrote ${target}`);
