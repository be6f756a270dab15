/**
 * What every provider's `src/docs/generate-docs.ts` does: write the rendered pages into the
 * package's `docs/` folder and say so.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Writes `files` (name -> content) into `docs/` of the package whose `dist/docs/generate-docs.js`
 * is `generatorUrl` (pass `import.meta.url`). Returns the paths written.
 */
export function writeReferenceDocs(generatorUrl: string, files: Readonly<Record<string, string>>): string[] {
  const docs = join(dirname(fileURLToPath(generatorUrl)), '..', '..', 'docs');
  const written = Object.entries(files).map(([name, content]) => {
    const path = join(docs, name);
    writeFileSync(path, content);
    return path;
  });
  console.log(`wrote ${written.join(', ')}`);
  return written;
}
