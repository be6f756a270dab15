/** Accept-header negotiation: plain JSON, YAML, Table, or PartialObjectMetadata. */

export type OutputFormat =
  | { kind: 'json' }
  | { kind: 'yaml' }
  | { kind: 'table'; apiVersion: string }
  | { kind: 'metadata'; apiVersion: string };

interface MediaRange {
  type: string;
  parameters: Map<string, string>;
  quality: number;
}

export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header || header.trim() === '') return [];
  const ranges = header.split(',').map((clause, index) => {
    const [type = '', ...parameterTexts] = clause.split(';');
    const parameters = new Map<string, string>();
    for (const text of parameterTexts) {
      const equals = text.indexOf('=');
      if (equals > 0) parameters.set(text.slice(0, equals).trim().toLowerCase(), text.slice(equals + 1).trim());
    }
    const quality = Number(parameters.get('q') ?? '1');
    return { type: type.trim().toLowerCase(), parameters, quality: Number.isFinite(quality) ? quality : 1, index };
  });
  return ranges.filter((range) => range.quality > 0).sort((left, right) => right.quality - left.quality || left.index - right.index);
}

const jsonTypes = new Set(['application/json', 'application/*', '*/*']);
const metaVersions = new Set(['v1', 'v1beta1']);

/**
 * The first acceptable format, or undefined (406). `allowYaml` is false for watches;
 * conversions (Table, metadata) are only offered where `allowConversion` is true.
 */
export function negotiateOutput(header: string | undefined, allowYaml: boolean, allowConversion = true): OutputFormat | undefined {
  const ranges = parseAccept(header);
  if (ranges.length === 0) return { kind: 'json' };
  for (const range of ranges) {
    const as = range.parameters.get('as');
    if (as !== undefined) {
      if (!allowConversion || !jsonTypes.has(range.type) || range.parameters.get('g') !== 'meta.k8s.io') continue;
      const version = range.parameters.get('v') ?? '';
      if (!metaVersions.has(version)) continue;
      if (as === 'Table') return { kind: 'table', apiVersion: `meta.k8s.io/${version}` };
      if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') return { kind: 'metadata', apiVersion: `meta.k8s.io/${version}` };
      continue;
    }
    if (jsonTypes.has(range.type)) return { kind: 'json' };
    if (allowYaml && range.type === 'application/yaml') return { kind: 'yaml' };
  }
  return undefined;
}
