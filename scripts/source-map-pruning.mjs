// Keeps a bundle's source map to the code of this repository: every mapping into node_modules
// becomes an unmapped position. The map of a provider bundle is mostly its dependencies' (the
// GCP bundle's 10 MB of mappings, 1,855 of its 2,071 sources), and `node --enable-source-maps`
// decodes all of it the first time a stack is read (the logger reads one per written line):
// past the Deployment's 256 MB heap for GCP. Frames in our own code still map to their .ts
// file and line; frames in a dependency show the bundle's position.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Map([...BASE64].map((character, index) => [character, index]));

/** One segment's VLQ fields (relative values, as in the map). */
export function decodeSegment(text) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const character of text) {
    const digit = BASE64_VALUE.get(character);
    if (digit === undefined) throw new Error(`invalid base64 VLQ character ${JSON.stringify(character)} in source map segment ${JSON.stringify(text)}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

export function encodeValue(value) {
  let rest = value < 0 ? (-value << 1) | 1 : value << 1;
  let text = '';
  do {
    let digit = rest & 31;
    rest >>>= 5;
    if (rest > 0) digit |= 32;
    text += BASE64[digit];
  } while (rest > 0);
  return text;
}

/**
 * The map with only the mappings whose source `keep(sourcePath)` accepts; the others become
 * generated-column-only segments (unmapped), so a kept mapping never spans a dependency's code.
 */
export function pruneSourceMap(map, keep) {
  const kept = map.sources.map((source) => keep(source));
  const state = { source: 0, line: 0, column: 0, name: 0 };
  const written = { source: 0, line: 0, column: 0, name: 0 };
  const lines = map.mappings.split(';').map((lineText) => {
    let generatedColumn = 0;
    let writtenColumn = 0;
    // Only the first unmapped segment after a mapped one is needed (it ends that mapping).
    let lastWrittenMapped = false;
    const segments = [];
    for (const segmentText of lineText === '' ? [] : lineText.split(',')) {
      const fields = decodeSegment(segmentText);
      generatedColumn += fields[0];
      let mapped = false;
      if (fields.length >= 4) {
        state.source += fields[1];
        state.line += fields[2];
        state.column += fields[3];
        if (fields.length >= 5) state.name += fields[4];
        mapped = kept[state.source];
      }
      if (!mapped && !lastWrittenMapped) continue;
      let segment = encodeValue(generatedColumn - writtenColumn);
      writtenColumn = generatedColumn;
      if (mapped) {
        segment += encodeValue(state.source - written.source) + encodeValue(state.line - written.line) + encodeValue(state.column - written.column);
        written.source = state.source;
        written.line = state.line;
        written.column = state.column;
        if (fields.length >= 5) {
          segment += encodeValue(state.name - written.name);
          written.name = state.name;
        }
      }
      lastWrittenMapped = mapped;
      segments.push(segment);
    }
    return segments.join(',');
  });
  return { ...map, mappings: lines.join(';') };
}

/** Our code: any source outside node_modules. */
export const isRepositorySource = (source) => !source.split(/[\\/]/).includes('node_modules');
