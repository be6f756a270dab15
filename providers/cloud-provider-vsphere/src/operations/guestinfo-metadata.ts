/**
 * IPs declared in the VM's cloud-init metadata (`guestinfo.metadata` extraConfig, VMware
 * datasource). Upstream lists these addresses first when choosing node addresses, so a static
 * address given to cloud-init wins over other addresses the guest reports.
 *
 * Encodings (`guestinfo.metadata.encoding`): none, `base64`/`b64`, `gzip+base64`/`gz+b64`.
 * The metadata is YAML or JSON; its `network` (an object, or a string with its own
 * `network.encoding`) is a cloud-init network config, version 1 (`config[].subnets[].address`)
 * or version 2 (`ethernets|bonds|vlans|bridges.<name>.addresses`). Prefix lengths are dropped.
 */
import { gunzipSync } from 'node:zlib';
import { errorMessage } from '@ccm/core/util';
import { parse } from 'yaml';

export const GUESTINFO_METADATA_KEY = 'guestinfo.metadata';
export const GUESTINFO_METADATA_ENCODING_KEY = 'guestinfo.metadata.encoding';

export interface MetadataAddresses {
  /** Addresses in document order, without duplicates; empty when there is no usable metadata. */
  ips: string[];
  /** Why the metadata could not be read (for a verbose log line). */
  error?: string;
}

export function metadataAddresses(extraConfig: ReadonlyMap<string, string>): MetadataAddresses {
  const raw = extraConfig.get(GUESTINFO_METADATA_KEY);
  if (raw === undefined || raw.trim() === '') return { ips: [] };
  try {
    const metadata = parseDocument(decode(raw, extraConfig.get(GUESTINFO_METADATA_ENCODING_KEY) ?? ''));
    if (!isRecord(metadata)) return { ips: [] };
    let network: unknown = metadata['network'];
    if (typeof network === 'string') network = parseDocument(decode(network, stringValue(metadata['network.encoding'])));
    if (isRecord(network) && isRecord(network['network'])) network = network['network'];
    const ips: string[] = [];
    const add = (address: unknown): void => {
      if (typeof address !== 'string') return;
      const ip = address.split('/')[0]?.trim() ?? '';
      if (ip !== '' && !ips.includes(ip)) ips.push(ip);
    };
    if (isRecord(network)) {
      if (Number(network['version']) === 1) {
        for (const device of arrayValue(network['config'])) {
          if (!isRecord(device)) continue;
          for (const subnet of arrayValue(device['subnets'])) if (isRecord(subnet)) add(subnet['address']);
        }
      } else {
        for (const kind of ['ethernets', 'bonds', 'vlans', 'bridges']) {
          const devices = network[kind];
          if (!isRecord(devices)) continue;
          for (const device of Object.values(devices)) {
            if (!isRecord(device)) continue;
            for (const address of arrayValue(device['addresses'])) {
              // v2 allows `- 10.0.0.5/24` and `- 10.0.0.5/24: {lifetime: ...}`.
              if (isRecord(address)) Object.keys(address).forEach(add);
              else add(address);
            }
          }
        }
      }
    }
    add(metadata['local-ipv4']);
    add(metadata['local-ipv6']);
    return { ips };
  } catch (error) {
    return { ips: [], error: `cannot read ${GUESTINFO_METADATA_KEY}: ${errorMessage(error)}` };
  }
}

function decode(value: string, encoding: string): string {
  switch (encoding.trim().toLowerCase()) {
    case '':
      return value;
    case 'base64':
    case 'b64':
      return Buffer.from(value, 'base64').toString('utf8');
    case 'gzip+base64':
    case 'gz+b64':
      return gunzipSync(Buffer.from(value, 'base64')).toString('utf8');
    default:
      throw new Error(`unknown encoding ${JSON.stringify(encoding)}`);
  }
}

function parseDocument(text: string): unknown {
  return parse(text) as unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function arrayValue(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function stringValue(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
