/** Discovery documents (/version, /api, /api/v1, /apis, /apis/<group>[/<version>]) and a minimal OpenAPI v3. */
import { createHash } from 'node:crypto';
import { apiGroups } from '../resources/resource-table.js';
import { groupVersion, type ResourceDefinition } from '../resources/resource-definition.js';

export const emulatedKubernetesVersion = { major: '1', minor: '32', gitVersion: 'v1.32.4+kube-emulator' };

export function versionInfo(): Record<string, string> {
  return {
    major: emulatedKubernetesVersion.major,
    minor: emulatedKubernetesVersion.minor,
    gitVersion: emulatedKubernetesVersion.gitVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2025-04-22T00:00:00Z',
    goVersion: `node${process.versions.node}`,
    compiler: 'gc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}

function storageVersionHash(definition: ResourceDefinition): string {
  return createHash('sha256').update(`${definition.group}/${definition.version}/${definition.kind}`).digest().subarray(0, 8).toString('base64');
}

export function apiVersions(serverAddress: string): Record<string, unknown> {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupDocument(name: string, versions: readonly string[]): Record<string, unknown> {
  const entries = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { name, versions: entries, preferredVersion: entries[0] };
}

export function apiGroupList(table: readonly ResourceDefinition[]): Record<string, unknown> {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: apiGroups(table).map((group) => groupDocument(group.name, group.versions)) };
}

export function apiGroup(table: readonly ResourceDefinition[], name: string): Record<string, unknown> | undefined {
  const group = apiGroups(table).find((candidate) => candidate.name === name);
  return group ? { kind: 'APIGroup', apiVersion: 'v1', ...groupDocument(group.name, group.versions) } : undefined;
}

export function apiResourceList(table: readonly ResourceDefinition[], group: string, version: string): Record<string, unknown> {
  const resources: Array<Record<string, unknown>> = [];
  for (const definition of table.filter((candidate) => candidate.group === group && candidate.version === version)) {
    const entry: Record<string, unknown> = {
      name: definition.plural,
      singularName: definition.singular,
      namespaced: definition.namespaced,
      kind: definition.kind,
      verbs: [...definition.verbs],
    };
    if (definition.shortNames.length > 0) entry['shortNames'] = [...definition.shortNames];
    if (definition.categories) entry['categories'] = [...definition.categories];
    entry['storageVersionHash'] = storageVersionHash(definition);
    resources.push(entry);
    if (definition.hasStatus) {
      resources.push({ name: `${definition.plural}/status`, singularName: '', namespaced: definition.namespaced, kind: definition.kind, verbs: ['get', 'patch', 'update'] });
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources };
}

const openApiPath = (group: string, version: string): string => (group ? `apis/${group}/${version}` : `api/${version}`);

function groupVersions(table: readonly ResourceDefinition[]): Array<{ group: string; version: string }> {
  const seen = new Map<string, { group: string; version: string }>();
  for (const definition of table) seen.set(groupVersion(definition), { group: definition.group, version: definition.version });
  return [...seen.values()];
}

/**
 * /openapi/v3: one document per group-version. The documents only describe PATCH operations and
 * their `fieldValidation` parameter, which is what kubectl reads to decide that validation is
 * done server-side (so `kubectl create -f` needs no client-side schema).
 */
export function openApiRoot(table: readonly ResourceDefinition[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const { group, version } of groupVersions(table)) {
    const path = openApiPath(group, version);
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${createHash('sha256').update(path).digest('hex').slice(0, 16).toUpperCase()}` };
  }
  return { paths };
}

export function openApiGroupVersion(table: readonly ResourceDefinition[], path: string): Record<string, unknown> | undefined {
  const target = groupVersions(table).find(({ group, version }) => openApiPath(group, version) === path);
  if (!target) return undefined;
  const parameters = [
    { name: 'dryRun', in: 'query', schema: { type: 'string', uniqueItems: true } },
    { name: 'fieldManager', in: 'query', schema: { type: 'string', uniqueItems: true } },
    { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } },
  ];
  const paths: Record<string, unknown> = {};
  for (const definition of table.filter((candidate) => candidate.group === target.group && candidate.version === target.version)) {
    const prefix = `/${path}${definition.namespaced ? '/namespaces/{namespace}' : ''}/${definition.plural}/{name}`;
    const gvk = { group: definition.group, version: definition.version, kind: definition.kind };
    const operation = (suffix: string) => ({
      operationId: `patch${definition.kind}${suffix}`,
      parameters,
      responses: { '200': { description: 'OK' } },
      'x-kubernetes-action': 'patch',
      'x-kubernetes-group-version-kind': gvk,
    });
    paths[prefix] = { patch: operation('') };
    if (definition.hasStatus) paths[`${prefix}/status`] = { patch: operation('Status') };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: emulatedKubernetesVersion.gitVersion }, paths, components: { schemas: {} } };
}
