#!/usr/bin/env node
// Writes scripts/vitest/test-file-seconds.json (read by the slowest-first sequencer on a clean
// clone) from vitest's results cache of the last full run: every file that took 2 s or more.
// Usage, after `pnpm test`: node scripts/vitest/record-test-file-seconds.mjs
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const cacheDirectory = join(root, 'node_modules', '.vite', 'vitest');
const caches = existsSync(cacheDirectory) ? readdirSync(cacheDirectory).map((name) => join(cacheDirectory, name, 'results.json')).filter((path) => existsSync(path)) : [];
if (caches.length === 0) {
  console.error(`no vitest results cache under ${cacheDirectory}: run the whole suite first (pnpm test)`);
  process.exit(1);
}
const seconds = new Map();
for (const path of caches) {
  for (const [key, result] of JSON.parse(readFileSync(path, 'utf8')).results) {
    const file = key.slice(key.indexOf(':') + 1);
    if (result.duration >= 2_000) seconds.set(file, Math.max(seconds.get(file) ?? 0, Math.round(result.duration / 100) / 10));
  }
}
const output = join(root, 'scripts', 'vitest', 'test-file-seconds.json');
writeFileSync(output, `${JSON.stringify(Object.fromEntries([...seconds].sort((a, b) => b[1] - a[1])), null, 2)}\n`);
console.log(`${output}: ${seconds.size} files`);
