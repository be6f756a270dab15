/**
 * Reads the legacy INI (gcfg) cloud config with the core gcfg parser and a schema generated from
 * the key registry. Unknown sections and keys are warnings (upstream reads with gcfg.FatalOnly);
 * bad values and syntax errors are problems. Lists are one comma-separated value.
 */
import { defineGcfgSchema, parseGcfg, type GcfgKeySpec, type GcfgKeyType, type GcfgSchemaSpec, type GcfgSectionSpec } from '@ccm/core/config';
import { VSPHERE_CONFIG_SECTIONS, type ConfigKeySpec, type ConfigKeyType } from './config-keys.js';
import { emptyRawConfig, splitCommaList, type RawSection, type RawValue, type RawVsphereConfig } from './raw-config.js';

const GCFG_TYPES: Record<ConfigKeyType, GcfgKeyType> = { string: 'string', boolean: 'bool', integer: 'int', list: 'string' };

function gcfgKey(key: ConfigKeySpec): GcfgKeySpec {
  return {
    type: GCFG_TYPES[key.type],
    name: key.ini,
    description: key.description,
    ...(key.secret ? { secret: true } : {}),
    ...(key.deprecated === true ? { deprecated: key.note ?? 'deprecated' } : {}),
  };
}

const SUPPORTED_SECTIONS = Object.entries(VSPHERE_CONFIG_SECTIONS).filter(([, section]) => section.status === 'supported');

const schemaSpec: GcfgSchemaSpec = Object.fromEntries(
  SUPPORTED_SECTIONS.map(([id, section]): [string, GcfgSectionSpec] => [
    id,
    {
      name: section.ini,
      description: section.description,
      ...('named' in section && section.named ? { subsections: true } : {}),
      keys: Object.fromEntries(Object.entries(section.keys as Record<string, ConfigKeySpec>).map(([keyId, key]) => [keyId, gcfgKey(key)])),
    },
  ]),
);

/** The INI schema (also used to render the INI reference). */
export const VSPHERE_INI_SCHEMA = defineGcfgSchema(schemaSpec);

export function readIniConfig(text: string, fileName: string): RawVsphereConfig {
  const raw = emptyRawConfig(fileName, 'ini');
  const document = parseGcfg(text, fileName);
  const result = VSPHERE_INI_SCHEMA.read(document, { unknown: 'warning' });
  raw.problems.push(...result.problems);
  for (const warning of result.warnings) {
    const unknownSection = /^unknown section "([^"]*)"$/.exec(warning.message)?.[1];
    const unsupported = Object.values(VSPHERE_CONFIG_SECTIONS).find((section) => section.status === 'not-supported' && section.ini.toLowerCase() === unknownSection?.toLowerCase());
    raw.warnings.push(unsupported === undefined ? warning : { ...warning, message: `section [${unsupported.ini}] is not supported: ${unsupported.description}` });
  }

  for (const [sectionId, section] of SUPPORTED_SECTIONS) {
    const keys = section.keys as Record<string, ConfigKeySpec>;
    if ('named' in section && section.named) {
      for (const found of document.sectionsNamed(section.ini)) {
        const subsection = found.subsection ?? '';
        const target: RawSection = { place: { fileName, line: found.line }, entries: new Map() };
        const values = (result.config[sectionId] as unknown as Map<string, Record<string, unknown>>).get(subsection) ?? {};
        fill(target, keys, values, (ini) => document.variable(section.ini, ini, found.subsection)?.line, fileName);
        raw.vcenters.set(subsection, target);
      }
    } else {
      const found = document.section(section.ini);
      if (found === undefined) continue;
      const target = raw[sectionId as 'global' | 'labels' | 'nodes'];
      target.place = { fileName, line: found.line };
      fill(target, keys, result.config[sectionId] as unknown as Record<string, unknown>, (ini) => document.variable(section.ini, ini)?.line, fileName);
    }
  }
  return raw;
}

function fill(target: RawSection, keys: Record<string, ConfigKeySpec>, values: Record<string, unknown>, lineOf: (ini: string) => number | undefined, fileName: string): void {
  for (const [keyId, key] of Object.entries(keys)) {
    const line = lineOf(key.ini);
    if (line === undefined) continue;
    const value = values[keyId];
    const converted: RawValue = key.type === 'list' ? splitCommaList(typeof value === 'string' ? value : '') : (value as RawValue);
    target.entries.set(keyId, { value: converted, place: { fileName, line } });
  }
}
