/** Builds the vSphere provider against a running vcsim, with a recording logger. */
import { createMetricsRegistry } from '@ccm/core/app';
import type { Logger } from '@ccm/core/logging';
import { readVsphereConfig } from '../../src/config/read-vsphere-config.js';
import type { SecretStore } from '../../src/credentials/secret-credentials.js';
import { createVsphereCloud, vsphereCloudProviderFactory, type VsphereCloud } from '../../src/vsphere-cloud.js';
import type { Vcsim } from './vcsim.js';

export interface LogLine {
  level: 'error' | 'warn' | 'info' | 'verbose';
  message: string;
  fields: Record<string, unknown> | undefined;
}

export function recordingLogger(lines: LogLine[]): Logger {
  const logger: Logger = {
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
    warn: (message, fields) => lines.push({ level: 'warn', message, fields }),
    info: (message, fields) => lines.push({ level: 'info', message, fields }),
    verbose: (_level, message, fields) => lines.push({ level: 'verbose', message, fields }),
    child: () => logger,
  };
  return logger;
}

/** A YAML cloud config for the simulator (CA-verified TLS). */
export function vcsimConfigYaml(vcsim: Vcsim, options: { password?: string; labels?: { zone: string; region: string }; extra?: string; credentials?: 'inline' | 'secret' } = {}): string {
  const url = new URL(vcsim.url);
  const credentials =
    options.credentials === 'secret'
      ? '  secretName: vsphere-creds\n  secretNamespace: kube-system\n'
      : `  user: ${JSON.stringify(vcsim.username)}\n  password: ${JSON.stringify(options.password ?? vcsim.password)}\n`;
  return [
    'global:',
    credentials.trimEnd(),
    `  caFile: ${vcsim.caFile}`,
    '  soapRoundtripCount: 1',
    'vcenter:',
    '  vcsim:',
    `    server: ${url.hostname}`,
    `    port: ${url.port}`,
    ...(options.labels ? ['labels:', `  zone: ${options.labels.zone}`, `  region: ${options.labels.region}`] : []),
    options.extra ?? '',
  ].join('\n');
}

/** The provider as the CCM builds it (registry factory), or with an injected Secret store. */
export async function createVcsimCloud(configText: string, options: { logs?: LogLine[]; secretStore?: SecretStore } = {}): Promise<VsphereCloud> {
  const logger = recordingLogger(options.logs ?? []);
  if (options.secretStore !== undefined) {
    const { config } = readVsphereConfig(configText, 'vsphere.yaml', {});
    return createVsphereCloud(config, { logger, secretStore: options.secretStore, environment: {} });
  }
  return (await vsphereCloudProviderFactory(configText, { configPath: 'vsphere.yaml', logger, metrics: createMetricsRegistry() })) as VsphereCloud;
}
