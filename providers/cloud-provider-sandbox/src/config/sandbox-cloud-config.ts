import { CloudConfigError, defineGcfgSchema, parseGcfg, type CloudConfigProblem } from '@ccm/core/config';
import type { CloudConfigSchema } from '@ccm/core/provider';
import type { LookupPolicy } from '../operations/instance-lookup.js';

/** The sandbox cloud-config file (gcfg), declared once: the reader and the docs come from it. */
export const SANDBOX_CLOUD_CONFIG_SCHEMA = defineGcfgSchema({
  global: {
    name: 'Global',
    description: 'Where the sandbox cloud is and which cluster this is.',
    keys: {
      url: { type: 'string', name: 'url', required: true, description: 'Base URL of the sandbox cloud API, e.g. `http://127.0.0.1:8080`.' },
      clusterId: {
        type: 'string',
        name: 'cluster-id',
        description: 'Identity tagged on every load balancer and route the CCM creates. When empty, `--cluster-name` is used and `--allow-untagged-cloud` is needed.',
      },
      region: { type: 'string', name: 'region', description: 'Only instances in this region are considered; empty means every region.' },
      requestTimeoutSeconds: { type: 'int', name: 'request-timeout', default: 10, description: 'Seconds before a cloud API request is abandoned.' },
      retries: { type: 'int', name: 'retries', default: 3, description: 'Retries of a throttled, failed (5xx) or unreachable call; 0 disables retrying.' },
      lookupPolicy: {
        type: 'string',
        name: 'lookup-policy',
        default: 'batched',
        allowed: ['batched', 'single'],
        description:
          'How instance lookups reach the cloud: `batched` coalesces the concurrent per-node lookups of every controller into batch calls; `single` makes one call per lookup (the upstream behaviour).',
      },
      apiQps: {
        type: 'int',
        name: 'api-qps',
        default: 20,
        description: 'Cloud API budget shared by every controller: requests per second, lowered automatically while the cloud throttles.',
      },
      apiBurst: { type: 'int', name: 'api-burst', default: 40, description: 'Cloud API budget: requests allowed at once after an idle period.' },
    },
  },
  loadBalancer: {
    name: 'LoadBalancer',
    description: 'The LoadBalancer capability.',
    keys: {
      enabled: { type: 'bool', name: 'enabled', default: true, description: 'Serve LoadBalancer Services; when false the service controller does not start.' },
      ingress: {
        type: 'string',
        name: 'ingress',
        default: 'ip',
        allowed: ['ip', 'hostname', 'both'],
        description: 'What `status.loadBalancer.ingress` reports: the IP, the DNS name, or both.',
      },
    },
  },
  routes: {
    name: 'Routes',
    description: 'The Routes capability.',
    keys: {
      enabled: { type: 'bool', name: 'enabled', default: true, description: 'Program pod CIDR routes; when false the route controller does not start.' },
    },
  },
});

export type LoadBalancerIngressMode = 'ip' | 'hostname' | 'both';

export interface SandboxCloudConfig {
  url: string;
  /** '' when not configured. */
  clusterId: string;
  /** '' for every region. */
  region: string;
  requestTimeoutMs: number;
  retries: number;
  /** The reader's default is `batched`; when absent (a config built in code) lookups are `single`. */
  lookupPolicy?: LookupPolicy;
  /** The client-side cloud API budget; none when absent. */
  cloudApi?: { qps: number; burst: number };
  loadBalancer: { enabled: boolean; ingress: LoadBalancerIngressMode };
  routes: { enabled: boolean };
}

/**
 * Parses and validates the cloud-config text. Every problem (syntax, unknown key, bad value)
 * is reported at once in one `CloudConfigError` naming the file and line.
 */
export function readSandboxCloudConfig(text: string, fileName: string): { config: SandboxCloudConfig; warnings: CloudConfigProblem[] } {
  const document = parseGcfg(text, fileName);
  const { config: raw, problems, warnings } = SANDBOX_CLOUD_CONFIG_SCHEMA.read(document);
  if (problems.length > 0) throw new CloudConfigError(problems);
  const problem = (key: string, message: string): void => {
    const line = document.variable('Global', key)?.line;
    problems.push(line === undefined ? { fileName, message } : { fileName, line, message });
  };

  let url = raw.global.url;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') problem('url', `section [Global], key "url": ${JSON.stringify(url)} must be an http or https URL`);
    url = url.replace(/\/+$/, '');
  } catch {
    problem('url', `section [Global], key "url": ${JSON.stringify(url)} is not a URL`);
  }
  if (raw.global.requestTimeoutSeconds <= 0) problem('request-timeout', 'section [Global], key "request-timeout": must be a positive number of seconds');
  if (raw.global.retries < 0) problem('retries', 'section [Global], key "retries": must not be negative');
  if (/\s/.test(raw.global.clusterId)) problem('cluster-id', 'section [Global], key "cluster-id": must not contain spaces');
  if (raw.global.apiQps <= 0) problem('api-qps', 'section [Global], key "api-qps": must be a positive number of requests per second');
  if (raw.global.apiBurst <= 0) problem('api-burst', 'section [Global], key "api-burst": must be a positive number of requests');
  if (problems.length > 0) throw new CloudConfigError(problems);

  return {
    config: {
      url,
      clusterId: raw.global.clusterId,
      region: raw.global.region,
      requestTimeoutMs: raw.global.requestTimeoutSeconds * 1000,
      retries: raw.global.retries,
      lookupPolicy: raw.global.lookupPolicy as LookupPolicy,
      cloudApi: { qps: raw.global.apiQps, burst: raw.global.apiBurst },
      loadBalancer: { enabled: raw.loadBalancer.enabled, ingress: raw.loadBalancer.ingress as LoadBalancerIngressMode },
      routes: { enabled: raw.routes.enabled },
    },
    warnings,
  };
}

/** How the provider definition reads `--cloud-config`: required (the cloud's URL is in it), then `readSandboxCloudConfig`. */
export const SANDBOX_CLOUD_CONFIG_READER: CloudConfigSchema<SandboxCloudConfig> = {
  read(text, fileName) {
    if (text === undefined) {
      throw new CloudConfigError({ fileName, message: 'the sandbox provider needs --cloud-config with [Global] url = <sandbox cloud URL>' });
    }
    return readSandboxCloudConfig(text, fileName);
  },
};
