/**
 * Environment overrides, applied after the file is read (upstream `FromEnv`):
 * - global and labels keys from `VSPHERE_*` variables (see the registry's `env`);
 * - extra vCenters from `VSPHERE_VCENTER_<id>=<name>`, their keys from `VCENTER_<id>_<SUFFIX>`.
 * A variable set to the empty string is ignored, as upstream does. `VSPHERE_VCENTER_PORT` is the
 * global port, never a vCenter named by id `PORT`.
 */
import { VSPHERE_CONFIG_SECTIONS, type ConfigKeySpec } from './config-keys.js';
import { emptyRawSection, splitCommaList, type RawSection, type RawValue, type RawVsphereConfig } from './raw-config.js';

const VCENTER_PREFIX = 'VSPHERE_VCENTER_';
/** Global variables that share the VSPHERE_VCENTER_ prefix. */
const RESERVED_VCENTER_IDS = new Set(['PORT']);

export function applyEnvironment(raw: RawVsphereConfig, environment: Readonly<Record<string, string | undefined>>): void {
  overlay(raw, raw.global, VSPHERE_CONFIG_SECTIONS.global.keys, (key) => key.env, environment);
  overlay(raw, raw.labels, VSPHERE_CONFIG_SECTIONS.labels.keys, (key) => key.env, environment);

  const ids = Object.keys(environment)
    .filter((name) => name.startsWith(VCENTER_PREFIX) && name.length > VCENTER_PREFIX.length)
    .map((name) => name.slice(VCENTER_PREFIX.length))
    .filter((id) => !RESERVED_VCENTER_IDS.has(id))
    .sort();
  for (const id of ids) {
    const variable = `${VCENTER_PREFIX}${id}`;
    const name = environment[variable];
    if (name === undefined || name === '') continue;
    let section = raw.vcenters.get(name);
    if (section === undefined) {
      section = emptyRawSection({ fileName: `environment variable ${variable}` });
      raw.vcenters.set(name, section);
    }
    overlay(raw, section, VSPHERE_CONFIG_SECTIONS.vcenter.keys, (key) => (key.env === undefined ? undefined : `VCENTER_${id}_${key.env}`), environment);
  }
}

function overlay(
  raw: RawVsphereConfig,
  section: RawSection,
  keys: Readonly<Record<string, ConfigKeySpec>>,
  variableOf: (key: ConfigKeySpec) => string | undefined,
  environment: Readonly<Record<string, string | undefined>>,
): void {
  for (const [keyId, key] of Object.entries(keys)) {
    const variable = variableOf(key);
    if (variable === undefined) continue;
    const text = environment[variable];
    if (text === undefined || text === '') continue;
    const place = { fileName: `environment variable ${variable}` };
    const value = parseEnvironmentValue(text, key);
    if (typeof value === 'object' && value !== null && 'problem' in value) {
      raw.problems.push({ fileName: place.fileName, message: value.problem });
      continue;
    }
    section.entries.set(keyId, { value, place });
  }
}

/** Go strconv.ParseBool / ParseUint semantics. */
export function parseEnvironmentValue(text: string, key: ConfigKeySpec): RawValue | { problem: string } {
  switch (key.type) {
    case 'string':
      return text;
    case 'list':
      return splitCommaList(text);
    case 'boolean': {
      if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
      if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
      return { problem: `invalid boolean ${JSON.stringify(text)} (use true or false)` };
    }
    case 'integer': {
      if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) return { problem: `invalid non-negative integer ${JSON.stringify(text)}` };
      return Number(text);
    }
  }
}
