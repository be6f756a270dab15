#!/usr/bin/env node
// Writes docs/cloud-controller-manager.md from the typed registries.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderOpenstackReference } from './render-openstack-reference.js';

export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

writeFileSync(join(PACKAGE_ROOT, 'docs', 'cloud-controller-manager.md'), renderOpenstackReference());
console.log(`wrote ${join(PACKAGE_ROOT, 'docs')}/cloud-controller-manager.md`);
