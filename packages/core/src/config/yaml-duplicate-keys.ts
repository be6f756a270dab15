/**
 * Duplicate mapping keys of a parsed YAML document, found in one pass. The `yaml` package's own
 * `uniqueKeys` check compares every key with every other one of its mapping: a 256 KiB file of
 * distinct keys takes about a minute, so parsers of config files turn it off and call this.
 */
import { isScalar, visit, type Document, type Node } from 'yaml';

/** The second (and later) occurrences of each scalar key, mapping by mapping (outer ones first). */
export function findDuplicateYamlKeys(document: Document.Parsed | Document): Node[] {
  const duplicates: Node[] = [];
  visit(document, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key = pair.key;
        if (!isScalar(key)) continue;
        // `<<` merge keys may repeat (YAML 1.1 merges).
        if (key.value === '<<') continue;
        if (seen.has(key.value)) duplicates.push(key);
        else seen.add(key.value);
      }
    },
  });
  return duplicates;
}
