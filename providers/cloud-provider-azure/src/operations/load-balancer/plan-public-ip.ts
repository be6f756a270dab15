/**
 * The tags of a public IP this provider manages (upstream `ensurePublicIPExists` and
 * `bindServicesToPIP`): `k8s-azure-service` lists every Service (`ns/name`) using it,
 * `k8s-azure-cluster-name` the cluster, `k8s-azure-dns-label-service` the Service that set the DNS
 * label; the config's tags and `azure-pip-tags` are merged in. Pure.
 */
import type { AzurePublicIp } from '../../ports/network-port.js';
import { LEGACY_TAG_CLUSTER_NAME, LEGACY_TAG_SERVICE, TAG_CLUSTER_NAME, TAG_DNS_LABEL_SERVICE, TAG_SERVICE } from './load-balancer-names.js';

/** The Services a public IP's tags name (current and legacy tag). */
export function servicesOf(publicIp: Pick<AzurePublicIp, 'tags'>): string[] {
  const value = publicIp.tags[TAG_SERVICE] ?? publicIp.tags[LEGACY_TAG_SERVICE] ?? '';
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

export interface PublicIpWish {
  name: string;
  location: string;
  serviceKey: string;
  clusterName: string;
  configTags: Record<string, string>;
  extraTags: Record<string, string>;
  ipTags: Array<{ ipTagType: string; tag: string }>;
  /** undefined: leave the DNS label alone; '': remove it. */
  dnsLabelName?: string;
  /** The address family of a public IP to create (`publicIPAddressVersion`; default IPv4). */
  version?: 'IPv4' | 'IPv6';
}

/** Why a Service may not take `existing` as its managed public IP, naming what refuses it. */
export type PublicIpRefusal =
  | { reason: 'other-services'; message: string }
  | { reason: 'other-cluster'; message: string }
  | { reason: 'dns-label-in-use'; message: string };

const sameName = (left: string, right: string): boolean => left.toLowerCase() === right.toLowerCase();

/**
 * Whether the Service of `wish` may manage `existing` (upstream `serviceOwnsPublicIP` and
 * `reconcileDNSSettings`): a public IP whose service tag names other Services only, or whose
 * cluster tag names another cluster, is not this Service's to tag, and a DNS label recorded for
 * another Service is not this Service's to change. Undefined: it may. Pure.
 */
export function publicIpRefusal(existing: AzurePublicIp | undefined, wish: Pick<PublicIpWish, 'serviceKey' | 'clusterName' | 'dnsLabelName'>): PublicIpRefusal | undefined {
  if (existing === undefined) return undefined;
  const services = servicesOf(existing);
  if (services.length > 0 && !services.some((entry) => sameName(entry, wish.serviceKey))) {
    return { reason: 'other-services', message: `public IP ${existing.name} is used by ${services.join(', ')}, not by ${wish.serviceKey}` };
  }
  const cluster = existing.tags[TAG_CLUSTER_NAME] ?? existing.tags[LEGACY_TAG_CLUSTER_NAME];
  if (services.length > 0 && cluster !== undefined && !sameName(cluster, wish.clusterName)) {
    return { reason: 'other-cluster', message: `public IP ${existing.name} belongs to cluster ${cluster}, not ${wish.clusterName}` };
  }
  const dnsOwner = existing.tags[TAG_DNS_LABEL_SERVICE];
  if (wish.dnsLabelName !== undefined && dnsOwner !== undefined && dnsOwner !== '' && !sameName(dnsOwner, wish.serviceKey)) {
    return {
      reason: 'dns-label-in-use',
      message: `pip(${existing.name}) - there is an existing service ${dnsOwner} consuming the DNS label on the public IP, so the service cannot set the DNS label annotation with this value`,
    };
  }
  return undefined;
}

/** The public IP as it should be (`existing` undefined: to create), and whether it differs. */
export function planPublicIp(existing: AzurePublicIp | undefined, wish: PublicIpWish): { publicIp: AzurePublicIp; changed: boolean } {
  const services = [...new Set([...(existing ? servicesOf(existing) : []), wish.serviceKey])].sort();
  const tags: Record<string, string> = { ...(existing?.tags ?? {}), ...wish.configTags, ...wish.extraTags, [TAG_SERVICE]: services.join(','), [TAG_CLUSTER_NAME]: wish.clusterName };
  delete tags[LEGACY_TAG_SERVICE];
  let domainNameLabel = existing?.domainNameLabel;
  if (wish.dnsLabelName !== undefined) {
    if (wish.dnsLabelName === '') {
      domainNameLabel = undefined;
      if (tags[TAG_DNS_LABEL_SERVICE] === wish.serviceKey) delete tags[TAG_DNS_LABEL_SERVICE];
    } else {
      domainNameLabel = wish.dnsLabelName;
      tags[TAG_DNS_LABEL_SERVICE] = wish.serviceKey;
    }
  }
  const publicIp: AzurePublicIp = {
    name: wish.name,
    ...(existing?.id === undefined ? {} : { id: existing.id }),
    location: existing?.location ?? wish.location,
    ...(existing?.etag === undefined ? {} : { etag: existing.etag }),
    tags,
    version: existing?.version ?? wish.version ?? 'IPv4',
    ipAddress: existing?.ipAddress ?? '',
    ...(domainNameLabel === undefined ? {} : { domainNameLabel }),
    ipTags: existing ? existing.ipTags : wish.ipTags,
    ...(existing?.ipConfigurationId === undefined ? {} : { ipConfigurationId: existing.ipConfigurationId }),
  };
  const changed = existing === undefined || JSON.stringify(sortKeys(existing.tags)) !== JSON.stringify(sortKeys(tags)) || existing.domainNameLabel !== domainNameLabel;
  return { publicIp, changed };
}

/**
 * The public IP without `serviceKey` in its tags; `delete` when no Service is left. A public IP
 * whose cluster tag names another cluster is that cluster's, even when its service tag names a
 * Service of the same namespace and name (upstream `serviceOwnsPublicIP`; an untagged cluster is
 * an old release's IP, owned): left alone.
 */
export function planPublicIpRelease(existing: AzurePublicIp, serviceKey: string, clusterName: string): { action: 'delete' } | { action: 'untag'; publicIp: AzurePublicIp } | { action: 'none' } {
  const services = servicesOf(existing);
  if (!services.includes(serviceKey)) return { action: 'none' };
  const cluster = existing.tags[TAG_CLUSTER_NAME] ?? existing.tags[LEGACY_TAG_CLUSTER_NAME] ?? '';
  if (cluster !== '' && !sameName(cluster, clusterName)) return { action: 'none' };
  const left = services.filter((entry) => entry !== serviceKey);
  if (left.length === 0) return { action: 'delete' };
  const tags: Record<string, string> = { ...existing.tags, [TAG_SERVICE]: left.join(',') };
  delete tags[LEGACY_TAG_SERVICE];
  if (tags[TAG_DNS_LABEL_SERVICE] === serviceKey) delete tags[TAG_DNS_LABEL_SERVICE];
  return { action: 'untag', publicIp: { ...existing, tags } };
}

function sortKeys(tags: Record<string, string>): Array<[string, string]> {
  return Object.entries(tags).sort(([left], [right]) => left.localeCompare(right));
}
