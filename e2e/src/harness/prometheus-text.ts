/**
 * A reader of the Prometheus text exposition format (what `/metrics` serves): each family's
 * `# HELP` and `# TYPE`, and its samples with their labels.
 */
export interface PrometheusSample {
  /** The sample's name (`x_bucket`, `x_count` for a histogram `x`). */
  name: string;
  labels: Record<string, string>;
  value: string;
}

export interface PrometheusFamily {
  help?: string;
  type?: string;
  samples: PrometheusSample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
const HISTOGRAM_SUFFIXES = ['_bucket', '_sum', '_count'];

/** The families of one scrape, by name; a histogram's `_bucket`/`_sum`/`_count` samples go to their family. */
export function parsePrometheusText(text: string): Map<string, PrometheusFamily> {
  const families = new Map<string, PrometheusFamily>();
  const family = (name: string): PrometheusFamily => {
    let found = families.get(name);
    if (found === undefined) families.set(name, (found = { samples: [] }));
    return found;
  };
  for (const line of text.split('\n')) {
    const comment = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (comment !== null) {
      const [, kind, name, rest] = comment as unknown as [string, 'HELP' | 'TYPE', string, string];
      if (kind === 'HELP') family(name).help = rest.replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
      else family(name).type = rest;
      continue;
    }
    const sample = SAMPLE.exec(line);
    if (sample === null) continue;
    const [, name = '', labelText = '', value = ''] = sample;
    const labels: Record<string, string> = {};
    for (const match of labelText.matchAll(LABEL)) labels[match[1]!] = match[2]!.replace(/\\"/g, '"').replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
    const suffix = HISTOGRAM_SUFFIXES.find((candidate) => name.endsWith(candidate));
    const base = suffix !== undefined && families.get(name.slice(0, -suffix.length))?.type === 'histogram' ? name.slice(0, -suffix.length) : name;
    family(base).samples.push({ name, labels, value });
  }
  return families;
}
