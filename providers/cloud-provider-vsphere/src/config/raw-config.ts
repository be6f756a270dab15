/**
 * The cloud config as read, before inheritance and validation: per section, the keys that were
 * set (file or environment) with their converted value and where they came from. Both readers
 * (YAML, INI) and the environment overlay produce this; `resolveVsphereConfig` consumes it.
 */
import type { CloudConfigProblem } from '@ccm/core/config';

export type RawValue = string | number | boolean | readonly string[];

/** Where a value or section came from: a file line or an environment variable. */
export interface ConfigPlace {
  /** The file name, or `environment variable X` for overrides. */
  fileName: string;
  line?: number;
}

export interface RawEntry {
  value: RawValue;
  place: ConfigPlace;
}

export interface RawSection {
  place: ConfigPlace;
  /** Key id (the registry property name, e.g. `insecureFlag`) -> value. */
  entries: Map<string, RawEntry>;
}

export interface RawVsphereConfig {
  fileName: string;
  format: 'yaml' | 'ini' | 'none';
  global: RawSection;
  /** vCenter entries by name, in file order. */
  vcenters: Map<string, RawSection>;
  labels: RawSection;
  nodes: RawSection;
  problems: CloudConfigProblem[];
  warnings: CloudConfigProblem[];
  /** The reader stopped early (syntax errors): checks of what is missing would only mislead. */
  incomplete?: boolean;
}

export function emptyRawSection(place: ConfigPlace): RawSection {
  return { place, entries: new Map() };
}

export function emptyRawConfig(fileName: string, format: RawVsphereConfig['format']): RawVsphereConfig {
  const place = { fileName };
  return {
    fileName,
    format,
    global: emptyRawSection(place),
    vcenters: new Map(),
    labels: emptyRawSection(place),
    nodes: emptyRawSection(place),
    problems: [],
    warnings: [],
  };
}

/** `dc1, dc2` -> `['dc1', 'dc2']`; empty items dropped (upstream splits on commas and trims). */
export function splitCommaList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export function problemAt(place: ConfigPlace, message: string): CloudConfigProblem {
  return place.line === undefined ? { fileName: place.fileName, message } : { fileName: place.fileName, line: place.line, message };
}
