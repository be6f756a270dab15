import { syncAddressUsers } from '../address-users.js';
import { collectionRoutes, locateIn, mutationOperation, listBody, requireBody, restore, type CollectionSpec } from '../collection-routes.js';
import type { ComputeRoute } from '../compute-route.js';
import { checkFingerprint, EMPTY_LABEL_FINGERPRINT, fingerprintOf, type ComputeState, type Resource } from '../compute-state.js';
import { GceError, invalidField, requiredField } from '../gce-error.js';
import { allocateExternalAddress, allocateInternalAddress, ipHolders } from '../ip-allocation.js';
import { parseIpv4Range, rangeContains } from '../ipv4.js';
import { records, resolveReference, strings } from '../references.js';
import { baseName, collectionPath, normalizeReference } from '../resource-links.js';
import { globalCollection, pathsOfAny, regionCollection } from './network-resources.js';

function regionOfZone(zone: string): string {
  return zone.replace(/-[a-z]$/, '');
}

function buildNetworkInterface(state: ComputeState, zone: string, nic: Record<string, unknown>, index: number, instancePath: string): Record<string, unknown> {
  const field = `resource.networkInterfaces[${index}]`;
  const region = regionOfZone(zone);
  let subnetwork = nic['subnetwork'] === undefined ? undefined : resolveReference(state, `${field}.subnetwork`, nic['subnetwork'], ['subnetworks'], regionCollection(state, region, 'subnetworks'));
  const networkValue = nic['network'] ?? subnetwork?.resource['network'] ?? `global/networks/${state.world.network}`;
  const network = resolveReference(state, `${field}.network`, networkValue, ['networks'], globalCollection(state, 'networks'));
  if (subnetwork !== undefined && subnetwork.resource['network'] !== network.link) throw invalidField(`${field}.subnetwork`, nic['subnetwork'], `The subnetwork is not in network '${network.path}'.`);
  if (subnetwork !== undefined && baseName(String(subnetwork.resource['region'])) !== region) throw invalidField(`${field}.subnetwork`, nic['subnetwork'], `The subnetwork is not in region '${region}'.`);
  const legacyRange = network.resource['IPv4Range'];
  if (subnetwork === undefined && legacyRange === undefined) {
    const candidates = state.list(regionCollection(state, region, 'subnetworks')).filter((candidate) => candidate['network'] === network.link);
    if (network.resource['autoCreateSubnetworks'] !== true || candidates[0] === undefined) {
      throw invalidField(`${field}.subnetwork`, undefined, `Network '${network.path}' is a custom-mode network: a subnetwork in region '${region}' must be specified.`);
    }
    const chosen = candidates[0];
    subnetwork = { path: normalizeReference('subnetwork', chosen['selfLink'], state.world.project), link: String(chosen['selfLink']), resource: chosen };
  }
  const cidr = String(subnetwork?.resource['ipCidrRange'] ?? legacyRange);
  let networkIP = nic['networkIP'];
  if (networkIP !== undefined) {
    if (typeof networkIP !== 'string' || !rangeContains(parseIpv4Range('ipCidrRange', cidr), networkIP)) throw invalidField(`${field}.networkIP`, networkIP, `It is not in the range ${cidr}.`);
    const holder = ipHolders(state).get(networkIP)?.[0];
    if (holder !== undefined) throw invalidField(`${field}.networkIP`, networkIP, `The IP address is already being used by '${holder}'.`);
  } else networkIP = allocateInternalAddress(state, cidr, subnetwork?.path ?? network.path);
  const accessConfigs = records(nic['accessConfigs']).map((access, accessIndex) => {
    const type = access['type'] ?? 'ONE_TO_ONE_NAT';
    if (type !== 'ONE_TO_ONE_NAT') throw invalidField(`${field}.accessConfigs[${accessIndex}].type`, type, 'Must be ONE_TO_ONE_NAT.');
    const requested = access['natIP'];
    const holder = typeof requested === 'string' ? ipHolders(state).get(requested)?.[0] : undefined;
    if (holder !== undefined) throw invalidField(`${field}.accessConfigs[${accessIndex}].natIP`, requested, `The IP address is already being used by '${holder}'.`);
    const natIP = requested ?? allocateExternalAddress(state);
    return { kind: 'compute#accessConfig', type, name: access['name'] ?? 'External NAT', natIP, networkTier: access['networkTier'] ?? 'PREMIUM' };
  });
  const stackType = nic['stackType'] ?? 'IPV4_ONLY';
  if (stackType !== 'IPV4_ONLY' && stackType !== 'IPV4_IPV6') throw invalidField(`${field}.stackType`, stackType, 'Must be IPV4_ONLY or IPV4_IPV6.');
  const built: Record<string, unknown> = {
    kind: 'compute#networkInterface',
    name: `nic${index}`,
    network: network.link,
    ...(subnetwork === undefined ? {} : { subnetwork: subnetwork.link }),
    networkIP,
    ...(accessConfigs.length > 0 ? { accessConfigs } : {}),
    stackType,
  };
  if (stackType === 'IPV4_IPV6') {
    const prefix = subnetwork?.resource['ipv6CidrRange'];
    if (typeof prefix !== 'string') throw invalidField(`${field}.stackType`, stackType, 'The subnetwork has no IPv6 range.');
    const host = `${prefix.replace(/::\/\d+$/, '')}:${(Number(String(networkIP).split('.')[3]) + 0x100).toString(16)}::`;
    const accessType = subnetwork?.resource['ipv6AccessType'];
    built['ipv6AccessType'] = accessType;
    if (accessType === 'EXTERNAL') {
      built['ipv6AccessConfigs'] = [{ kind: 'compute#accessConfig', type: 'DIRECT_IPV6', name: 'external-ipv6', externalIpv6: host, externalIpv6PrefixLength: 96, networkTier: 'PREMIUM' }];
    } else built['ipv6Address'] = host;
  }
  built['fingerprint'] = fingerprintOf({ built, instancePath });
  return built;
}

const INSTANCES = { scope: 'zone', collection: 'instances', nameParam: 'instance' } as const;
const GROUPS = { scope: 'zone', collection: 'instanceGroups', nameParam: 'instanceGroup', fingerprinted: true } as const;

function instanceSpec(): CollectionSpec {
  return {
    apiResource: 'instances',
    ...INSTANCES,
    kind: 'compute#instance',
    listKind: 'compute#instanceList',
    aggregatedListKind: 'compute#instanceAggregatedList',
    fingerprinted: true,
    references: (instance) => records(instance['networkInterfaces']).flatMap((nic) => pathsOfAny(nic['network'], nic['subnetwork'])),
    build: ({ state, body, scope, path, project }) => {
      const zone = scope.type === 'zone' ? scope.name : '';
      if (body['machineType'] === undefined) throw requiredField('resource.machineType');
      const machineType = normalizeReference('resource.machineType', body['machineType'], project, collectionPath(project, scope, 'machineTypes'));
      if (!/^projects\/[^/]+\/zones\/[^/]+\/machineTypes\/[a-z0-9][-a-z0-9]*$/.test(machineType)) throw invalidField('resource.machineType', body['machineType'], 'Expected zones/ZONE/machineTypes/TYPE.');
      if (!machineType.includes(`/zones/${zone}/`)) throw invalidField('resource.machineType', body['machineType'], `The machine type must be in zone '${zone}'.`);
      const interfaces = records(body['networkInterfaces']);
      const nics = (interfaces.length > 0 ? interfaces : [{}]).map((nic, index) => buildNetworkInterface(state, zone, nic, index, path));
      const tagItems = strings(records([body['tags']])[0]?.['items']);
      const tags = { ...(tagItems.length > 0 ? { items: tagItems } : {}), fingerprint: fingerprintOf(tagItems) };
      const labels = records([body['labels']])[0];
      const metadataItems = records(records([body['metadata']])[0]?.['items']);
      const disks = records(body['disks']).map((disk, index) => ({
        kind: 'compute#attachedDisk',
        type: disk['type'] ?? 'PERSISTENT',
        mode: disk['mode'] ?? 'READ_WRITE',
        deviceName: disk['deviceName'] ?? `persistent-disk-${index}`,
        index,
        boot: disk['boot'] === true,
        autoDelete: disk['autoDelete'] !== false,
        interface: disk['interface'] ?? 'SCSI',
      }));
      return {
        machineType: state.link(machineType),
        status: 'RUNNING',
        canIpForward: body['canIpForward'] === true,
        networkInterfaces: nics,
        ...(disks.length > 0 ? { disks } : {}),
        tags,
        ...(labels === undefined ? {} : { labels }),
        labelFingerprint: labels === undefined ? EMPTY_LABEL_FINGERPRINT : fingerprintOf(labels),
        metadata: { kind: 'compute#metadata', fingerprint: fingerprintOf(metadataItems), ...(metadataItems.length > 0 ? { items: metadataItems } : {}) },
        ...(body['hostname'] === undefined ? {} : { hostname: body['hostname'] }),
        scheduling: { onHostMaintenance: 'MIGRATE', automaticRestart: true, preemptible: false },
        deletionProtection: body['deletionProtection'] === true,
        startRestricted: false,
        cpuPlatform: 'Intel Broadwell',
        lastStartTimestamp: state.timestamp(),
      };
    },
    afterWrite: (state) => syncAddressUsers(state),
    beforeDelete: (_state, path, instance) => {
      if (instance['deletionProtection'] === true) throw new GceError('resourceInUseByAnotherResource', `The instance '${path}' has deletion protection enabled.`);
    },
    afterDelete: (state, path) => {
      // Compute drops a deleted instance from its unmanaged instance groups.
      const link = state.link(path);
      for (const [groupPath, members] of state.groupMembers) {
        if (!members.includes(link)) continue;
        state.groupMembers.set(groupPath, members.filter((member) => member !== link));
        const group = state.get(groupPath);
        if (group !== undefined) {
          group['size'] = members.length - 1;
          restore(state, GROUPS, groupPath, group);
        }
      }
      syncAddressUsers(state);
    },
  };
}

function instanceCustomRoutes(state: ComputeState): ComputeRoute[] {
  const one = 'projects/{project}/zones/{zone}/instances/{instance}';
  const setStatus = (id: string, verb: 'stop' | 'start'): ComputeRoute => ({
    id,
    httpMethod: 'POST',
    path: `${one}/${verb}`,
    handle: (request) => {
      const { project, scope, path, resource } = locateIn(state, INSTANCES, request);
      if (verb === 'stop') {
        resource['status'] = 'TERMINATED';
        resource['lastStopTimestamp'] = state.timestamp();
      } else {
        resource['status'] = 'RUNNING';
        resource['lastStartTimestamp'] = state.timestamp();
      }
      restore(state, { fingerprinted: true }, path, resource);
      return mutationOperation(state, project, scope, verb, resource);
    },
  });
  return [
    setStatus('compute.instances.stop', 'stop'),
    setStatus('compute.instances.start', 'start'),
    {
      id: 'compute.instances.setTags',
      httpMethod: 'POST',
      path: `${one}/setTags`,
      handle: (request) => {
        const { project, scope, path, resource } = locateIn(state, INSTANCES, request);
        const body = requireBody(request);
        const current = records([resource['tags']])[0];
        if (body['fingerprint'] === undefined) throw requiredField('tags.fingerprint');
        checkFingerprint(path, current?.['fingerprint'], body['fingerprint'], 'fingerprint');
        const items = strings(body['items']);
        resource['tags'] = { ...(items.length > 0 ? { items } : {}), fingerprint: fingerprintOf(items) };
        restore(state, { fingerprinted: true }, path, resource);
        return mutationOperation(state, project, scope, 'setTags', resource);
      },
    },
    {
      id: 'compute.instances.setLabels',
      httpMethod: 'POST',
      path: `${one}/setLabels`,
      handle: (request) => {
        const { project, scope, path, resource } = locateIn(state, INSTANCES, request);
        const body = requireBody(request);
        if (body['labelFingerprint'] === undefined) throw requiredField('labelFingerprint');
        checkFingerprint(path, resource['labelFingerprint'], body['labelFingerprint'], 'labelFingerprint');
        const labels = records([body['labels']])[0] ?? {};
        if (Object.keys(labels).length > 0) resource['labels'] = labels;
        else delete resource['labels'];
        resource['labelFingerprint'] = Object.keys(labels).length > 0 ? fingerprintOf(labels) : EMPTY_LABEL_FINGERPRINT;
        restore(state, { fingerprinted: true }, path, resource);
        return mutationOperation(state, project, scope, 'setLabels', resource);
      },
    },
  ];
}

function instanceGroupSpec(): CollectionSpec {
  return {
    apiResource: 'instanceGroups',
    ...GROUPS,
    kind: 'compute#instanceGroup',
    listKind: 'compute#instanceGroupList',
    aggregatedListKind: 'compute#instanceGroupAggregatedList',
    references: (group) => pathsOfAny(group['network'], group['subnetwork']),
    build: ({ state, body, scope }) => {
      const region = scope.type === 'zone' ? regionOfZone(scope.name) : state.world.region;
      const network = body['network'] === undefined ? undefined : resolveReference(state, 'resource.network', body['network'], ['networks'], globalCollection(state, 'networks'));
      const subnetwork = body['subnetwork'] === undefined ? undefined : resolveReference(state, 'resource.subnetwork', body['subnetwork'], ['subnetworks'], regionCollection(state, region, 'subnetworks'));
      const namedPorts = records(body['namedPorts']).map((port, index) => {
        if (typeof port['name'] !== 'string' || typeof port['port'] !== 'number') throw invalidField(`resource.namedPorts[${index}]`, port, 'A named port needs a name and a port.');
        return { name: port['name'], port: port['port'] };
      });
      return {
        ...(network === undefined ? {} : { network: network.link }),
        ...(subnetwork === undefined ? {} : { subnetwork: subnetwork.link }),
        ...(namedPorts.length > 0 ? { namedPorts } : {}),
        size: 0,
      };
    },
    afterWrite: (state, path) => {
      if (!state.groupMembers.has(path)) state.groupMembers.set(path, []);
    },
    afterDelete: (state, path) => {
      state.groupMembers.delete(path);
    },
  };
}

function memberReferences(state: ComputeState, body: Record<string, unknown>, zone: string): { path: string; link: string; resource: Resource }[] {
  const entries = records(body['instances']);
  return entries.map((entry, index) => {
    const member = resolveReference(state, `instances[${index}].instance`, entry['instance'], ['instances'], collectionPath(state.world.project, { type: 'zone', name: zone }, 'instances'));
    if (!member.path.includes(`/zones/${zone}/`)) throw invalidField(`instances[${index}].instance`, entry['instance'], `The instance must be in zone '${zone}'.`);
    return member;
  });
}

function instanceGroupCustomRoutes(state: ComputeState): ComputeRoute[] {
  const one = 'projects/{project}/zones/{zone}/instanceGroups/{instanceGroup}';
  return [
    {
      id: 'compute.instanceGroups.addInstances',
      httpMethod: 'POST',
      path: `${one}/addInstances`,
      handle: (request) => {
        const { project, scope, path, resource } = locateIn(state, GROUPS, request);
        const zone = scope.type === 'zone' ? scope.name : '';
        const added = memberReferences(state, requireBody(request), zone);
        const members = state.groupMembers.get(path) ?? [];
        const duplicate = added.find((member) => members.includes(member.link));
        if (duplicate !== undefined) {
          const error = new GceError('memberAlreadyExists', `The resource '${duplicate.path}' is already a member of '${path}'`);
          return mutationOperation(state, project, scope, 'addInstances', resource, error);
        }
        // The group takes the network of its first member; every member must be on it.
        const firstNic = records(added[0]?.resource['networkInterfaces'])[0];
        const groupNetwork = resource['network'] ?? firstNic?.['network'];
        for (const member of added) {
          const nic0 = records(member.resource['networkInterfaces'])[0];
          if (nic0?.['network'] !== groupNetwork) {
            throw invalidField('instances', member.link, `The instance is not in the instance group's network '${String(groupNetwork)}'.`);
          }
        }
        if (resource['network'] === undefined && firstNic !== undefined) {
          resource['network'] = firstNic['network'];
          if (firstNic['subnetwork'] !== undefined) resource['subnetwork'] = firstNic['subnetwork'];
        }
        const next = [...new Set([...members, ...added.map((member) => member.link)])];
        state.groupMembers.set(path, next);
        resource['size'] = next.length;
        restore(state, GROUPS, path, resource);
        return mutationOperation(state, project, scope, 'addInstances', resource);
      },
    },
    {
      id: 'compute.instanceGroups.removeInstances',
      httpMethod: 'POST',
      path: `${one}/removeInstances`,
      handle: (request) => {
        const { project, scope, path, resource } = locateIn(state, GROUPS, request);
        const zone = scope.type === 'zone' ? scope.name : '';
        const removed = records(requireBody(request)['instances']).map((entry, index) =>
          state.link(normalizeReference(`instances[${index}].instance`, entry['instance'], project, collectionPath(project, { type: 'zone', name: zone }, 'instances'))),
        );
        const next = (state.groupMembers.get(path) ?? []).filter((member) => !removed.includes(member));
        state.groupMembers.set(path, next);
        resource['size'] = next.length;
        restore(state, GROUPS, path, resource);
        return mutationOperation(state, project, scope, 'removeInstances', resource);
      },
    },
    {
      id: 'compute.instanceGroups.listInstances',
      httpMethod: 'POST',
      path: `${one}/listInstances`,
      handle: (request) => {
        const { path } = locateIn(state, GROUPS, request);
        const instanceState = request.body?.['instanceState'] ?? 'ALL';
        if (instanceState !== 'ALL' && instanceState !== 'RUNNING') throw invalidField('instanceState', instanceState, 'Must be ALL or RUNNING.');
        const items = (state.groupMembers.get(path) ?? [])
          .map((link) => ({ instance: link, status: String(state.get(link.slice(state.world.apiBase.length))?.['status'] ?? 'TERMINATED') }))
          .filter((item) => instanceState === 'ALL' || item.status === 'RUNNING');
        return listBody(state, 'compute#instanceGroupsListInstances', `${path}/listInstances`, items, request.query);
      },
    },
  ];
}

export function instanceRoutes(state: ComputeState): ComputeRoute[] {
  return [
    ...collectionRoutes(state, instanceSpec()),
    ...instanceCustomRoutes(state),
    ...collectionRoutes(state, instanceGroupSpec()),
    ...instanceGroupCustomRoutes(state),
  ];
}

