/**
 * Reads the vSphere cloud config: detects the format (INI when the first statement is a
 * `[Section]` header, YAML otherwise; upstream tries YAML then INI, which gives the same result
 * without the confusing YAML errors on INI files), applies the environment overrides, resolves
 * and validates. Throws one CloudConfigError listing every problem with file and line.
 */
import { CloudConfigError, type CloudConfigProblem } from '@ccm/core/config';
import { existsSync } from 'node:fs';
import { applyEnvironment } from './apply-environment.js';
import { emptyRawConfig, type RawVsphereConfig } from './raw-config.js';
import { readIniConfig } from './read-ini-config.js';
import { readYamlConfig } from './read-yaml-config.js';
import { resolveVsphereConfig, type ResolveOptions } from './resolve-config.js';
import type { VsphereConfig } from './vsphere-config.js';

export interface ReadVsphereConfigResult {
  config: VsphereConfig;
  format: RawVsphereConfig['format'];
  /** Unknown keys, ignored and deprecated keys: log them. */
  warnings: CloudConfigProblem[];
}

const INI_HEADER = /^\s*\[\s*[A-Za-z][A-Za-z0-9-]*(\s+"(?:[^"\\]|\\.)*")?\s*\]/;

export function detectConfigFormat(text: string): 'yaml' | 'ini' | 'none' {
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    return INI_HEADER.test(line) ? 'ini' : 'yaml';
  }
  return 'none';
}

/**
 * `text` is the `--cloud-config` file, or undefined without one (then only the environment
 * configures the provider, as upstream allows). `options.pathExists` (default: the file system)
 * tells whether the default secrets directory exists.
 */
export function readVsphereConfig(
  text: string | undefined,
  fileName: string,
  environment: Readonly<Record<string, string | undefined>> = process.env,
  options: ResolveOptions = { pathExists: existsSync },
): ReadVsphereConfigResult {
  const format = text === undefined ? 'none' : detectConfigFormat(text);
  const raw = format === 'ini' ? readIniConfig(text ?? '', fileName) : format === 'yaml' ? readYamlConfig(text ?? '', fileName) : emptyRawConfig(fileName, 'none');
  applyEnvironment(raw, environment);
  const resolved = resolveVsphereConfig(raw, environment, options);
  if (resolved.config === undefined) throw new CloudConfigError(resolved.problems);
  return { config: resolved.config, format, warnings: resolved.warnings };
}
