/**
 * Compute API microversions as Nova negotiates them: `OpenStack-API-Version: compute X.Y` (or the
 * legacy `X-OpenStack-Nova-API-Version: X.Y`), `latest` meaning the maximum, none meaning 2.1.
 * The stand-in serves 2.1 up to NOVA_MAXIMUM_MICROVERSION: the server view embeds the flavor from
 * 2.47 (what `flavor.original_name` needs), as Nova does.
 */
export interface Microversion {
  major: number;
  minor: number;
}

export const NOVA_MINIMUM_MICROVERSION: Microversion = { major: 2, minor: 1 };
export const NOVA_MAXIMUM_MICROVERSION: Microversion = { major: 2, minor: 47 };

export function formatMicroversion(version: Microversion): string {
  return `${version.major}.${version.minor}`;
}

export function parseMicroversion(text: string): Microversion | undefined {
  const match = /^(\d+)\.(\d+)$/.exec(text.trim());
  return match === null ? undefined : { major: Number(match[1]), minor: Number(match[2]) };
}

/** Negative, zero or positive as `left` is older, equal or newer than `right`. */
export function compareMicroversions(left: Microversion, right: Microversion): number {
  return left.major !== right.major ? left.major - right.major : left.minor - right.minor;
}

/** Whether `version` is at least `X.Y`. */
export function atLeast(version: Microversion, minimum: string): boolean {
  return compareMicroversions(version, parseMicroversion(minimum)!) >= 0;
}

export type MicroversionOutcome =
  | { ok: true; version: Microversion }
  | { ok: false; status: 400 | 406; message: string };

/** The microversion a request asks for, from its (lower-cased) headers. */
export function requestedMicroversion(headers: Record<string, string | string[] | undefined>): MicroversionOutcome {
  let requested: string | undefined;
  const modern = headerText(headers['openstack-api-version']);
  if (modern !== undefined) {
    for (const entry of modern.split(',')) {
      const [service, value] = entry.trim().split(/\s+/, 2);
      if (service?.toLowerCase() === 'compute' && value !== undefined) requested = value;
    }
  }
  requested ??= headerText(headers['x-openstack-nova-api-version']);
  if (requested === undefined) return { ok: true, version: NOVA_MINIMUM_MICROVERSION };
  if (requested.trim().toLowerCase() === 'latest') return { ok: true, version: NOVA_MAXIMUM_MICROVERSION };
  const version = parseMicroversion(requested);
  if (version === undefined) return { ok: false, status: 400, message: `Invalid format for version string: ${requested.trim()}` };
  if (compareMicroversions(version, NOVA_MINIMUM_MICROVERSION) < 0 || compareMicroversions(version, NOVA_MAXIMUM_MICROVERSION) > 0) {
    return {
      ok: false,
      status: 406,
      message: `Version ${formatMicroversion(version)} is not supported by the API. Minimum is ${formatMicroversion(NOVA_MINIMUM_MICROVERSION)} and maximum is ${formatMicroversion(NOVA_MAXIMUM_MICROVERSION)}.`,
    };
  }
  return { ok: true, version };
}

/** The headers every versioned answer carries. */
export function microversionHeaders(version: Microversion): Record<string, string> {
  return {
    'OpenStack-API-Version': `compute ${formatMicroversion(version)}`,
    'X-OpenStack-Nova-API-Version': formatMicroversion(version),
    Vary: 'OpenStack-API-Version, X-OpenStack-Nova-API-Version',
  };
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}
