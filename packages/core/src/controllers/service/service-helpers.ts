/**
 * Service helpers shared by the service controller and the providers (upstream
 * `service/helpers/helper.go`): source ranges, traffic policy, health check, finalizer, status
 * comparison and the metadata/status patch.
 */
import type { V1LoadBalancerStatus, V1Service } from '@kubernetes/client-node';
import { ANNOTATION_LOAD_BALANCER_SOURCE_RANGES, FINALIZER_LOAD_BALANCER_CLEANUP } from '../../api/well-known.js';
import type { JsonObject } from '../../kube/json-value.js';
import type { ServiceApi } from '../../kube/ports.js';
import { toWire } from '../../kube/wire-format.js';
import type { LoadBalancerIngress, LoadBalancerStatus } from '../../provider/load-balancer.js';
import { formatCidrAsGo, parseCidr } from '../../net/cidr.js';
import { createTwoWayMergePatch, SERVICE_PATCH_SCHEMA } from './two-way-merge-patch.js';

export const LOAD_BALANCER_CLEANUP_FINALIZER = FINALIZER_LOAD_BALANCER_CLEANUP;
const DEFAULT_LOAD_BALANCER_SOURCE_RANGES = '0.0.0.0/0';

/** A service's source ranges (spec field or annotation) do not parse. The message names the input. */
export class InvalidSourceRangesError extends Error {
  readonly kind = 'InvalidSourceRanges';
  /** Where the bad value came from. */
  readonly source: 'spec' | 'annotation';
  constructor(source: 'spec' | 'annotation', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvalidSourceRangesError';
    this.source = source;
  }
}

/** Parses CIDRs (each trimmed) into their canonical form (as Go prints them), de-duplicated, in first-seen order. */
function parseIpNets(specs: readonly string[]): string[] {
  const result: string[] = [];
  for (const spec of specs) {
    const canonical = formatCidrAsGo(parseCidr(spec.trim()));
    if (!result.includes(canonical)) result.push(canonical);
  }
  return result;
}

const goList = (items: readonly string[]): string => `[${items.join(' ')}]`;

/**
 * The source ranges allowed to reach the load balancer, as canonical CIDRs: `spec.loadBalancerSourceRanges`
 * when set, else the `service.beta.kubernetes.io/load-balancer-source-ranges` annotation
 * (comma-separated), else `0.0.0.0/0`. Throws InvalidSourceRangesError with upstream's message.
 */
export function getLoadBalancerSourceRanges(service: V1Service): string[] {
  const specRanges = service.spec?.loadBalancerSourceRanges ?? [];
  if (specRanges.length > 0) {
    try {
      return parseIpNets(specRanges);
    } catch (error) {
      throw new InvalidSourceRangesError(
        'spec',
        `service.Spec.LoadBalancerSourceRanges: ${goList(specRanges)} is not valid. Expecting a list of IP ranges. For example, 10.0.0.0/24. Error msg: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  let value = (service.metadata?.annotations?.[ANNOTATION_LOAD_BALANCER_SOURCE_RANGES] ?? '').trim();
  if (value === '') value = DEFAULT_LOAD_BALANCER_SOURCE_RANGES;
  try {
    return parseIpNets(value.split(','));
  } catch (error) {
    throw new InvalidSourceRangesError(
      'annotation',
      `${ANNOTATION_LOAD_BALANCER_SOURCE_RANGES}: ${value} is not valid. Expecting a comma-separated list of source IP ranges. For example, 10.0.0.0/24,192.168.2.0/24`,
      { cause: error },
    );
  }
}

/** True when the ranges allow all IPv4 traffic (`0.0.0.0/0`). `::/0` is not considered, as upstream. */
export function isAllowAll(ranges: Iterable<string>): boolean {
  for (const range of ranges) if (range === '0.0.0.0/0') return true;
  return false;
}

/** Type LoadBalancer or NodePort with externalTrafficPolicy Local. */
export function requestsOnlyLocalTraffic(service: V1Service): boolean {
  const type = service.spec?.type;
  if (type !== 'LoadBalancer' && type !== 'NodePort') return false;
  return service.spec?.externalTrafficPolicy === 'Local';
}

/** Type LoadBalancer with externalTrafficPolicy Local. */
export function needsHealthCheck(service: V1Service): boolean {
  if (service.spec?.type !== 'LoadBalancer') return false;
  return requestsOnlyLocalTraffic(service);
}

/** `{ path: '/healthz', port: healthCheckNodePort }` when a health check is needed and the port is set. */
export function getServiceHealthCheckPathPort(service: V1Service): { path: string; port: number } {
  if (!needsHealthCheck(service)) return { path: '', port: 0 };
  const port = service.spec?.healthCheckNodePort ?? 0;
  if (port === 0) return { path: '', port: 0 };
  return { path: '/healthz', port };
}

export function hasLoadBalancerFinalizer(service: V1Service): boolean {
  return (service.metadata?.finalizers ?? []).includes(LOAD_BALANCER_CLEANUP_FINALIZER);
}

type AnyStatus = LoadBalancerStatus | V1LoadBalancerStatus | undefined;
type AnyIngress = LoadBalancerIngress | NonNullable<V1LoadBalancerStatus['ingress']>[number];

/**
 * kube-apiserver (1.32+, LoadBalancerIPMode GA) defaults `ipMode` to `VIP` on ingress entries with
 * an IP. A provider that leaves it unset means the same thing; comparing the raw values would patch
 * the status on every sync.
 */
function effectiveIpMode(ingress: AnyIngress): string | undefined {
  return ingress.ipMode ?? (ingress.ip ? 'VIP' : undefined);
}

function ingressEqual(left: AnyIngress, right: AnyIngress): boolean {
  if ((left.ip ?? '') !== (right.ip ?? '')) return false;
  if ((left.hostname ?? '') !== (right.hostname ?? '')) return false;
  if (effectiveIpMode(left) !== effectiveIpMode(right)) return false;
  const leftPorts = left.ports ?? [];
  const rightPorts = right.ports ?? [];
  if (leftPorts.length !== rightPorts.length) return false;
  return leftPorts.every((port, index) => {
    const other = rightPorts[index];
    return other !== undefined && port.port === other.port && port.protocol === other.protocol && (port.error ?? undefined) === (other.error ?? undefined);
  });
}

/** Compares only the ingress lists (ip, hostname, ipMode, ports), in order. */
export function loadBalancerStatusEqual(left: AnyStatus, right: AnyStatus): boolean {
  const leftIngress = left?.ingress ?? [];
  const rightIngress = right?.ingress ?? [];
  if (leftIngress.length !== rightIngress.length) return false;
  return leftIngress.every((ingress, index) => ingressEqual(ingress, rightIngress[index] as AnyIngress));
}

/** The strategic merge patches turning `original` into `updated`; spec changes are ignored. */
export interface ServicePatches {
  /** Patch of `metadata` (sent to the main resource), or undefined when metadata is unchanged. */
  metadata?: JsonObject;
  /** Patch of `status` (sent to the status subresource), or undefined when status is unchanged. */
  status?: JsonObject;
}

/** Upstream `getPatchBytes`, split by destination. Pure. */
export function createServicePatches(original: V1Service, updated: V1Service): ServicePatches {
  const before = toWire(original, 'V1Service');
  const after = toWire(updated, 'V1Service');
  const metadata = createTwoWayMergePatch({ metadata: before.metadata ?? {} }, { metadata: after.metadata ?? {} }, SERVICE_PATCH_SCHEMA);
  const status = createTwoWayMergePatch({ status: before.status ?? {} }, { status: after.status ?? {} }, SERVICE_PATCH_SCHEMA);
  const patches: ServicePatches = {};
  if (Object.keys(metadata).length > 0) patches.metadata = metadata;
  if (Object.keys(status).length > 0) patches.status = status;
  return patches;
}

/**
 * Upstream `PatchService`: sends only metadata and status changes as strategic merge patches, so
 * they apply regardless of resourceVersion. Metadata goes to the main resource, status to the
 * `status` subresource (the status subresource of many API servers and emulators ignores
 * metadata). Returns the latest service (or `original` when nothing changed).
 */
export async function patchService(services: ServiceApi, original: V1Service, updated: V1Service): Promise<V1Service> {
  const namespace = original.metadata?.namespace ?? 'default';
  const name = original.metadata?.name ?? '';
  const patches = createServicePatches(original, updated);
  let latest = original;
  if (patches.metadata !== undefined) latest = await services.patch(namespace, name, patches.metadata, 'strategic');
  if (patches.status !== undefined) latest = await services.patchStatus(namespace, name, patches.status, 'strategic');
  return latest;
}
