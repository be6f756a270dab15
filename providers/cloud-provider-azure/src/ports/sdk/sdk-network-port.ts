/** The Network port over `@azure/arm-network` (the only Network code importing the SDK). */
import type { NetworkInterface, NetworkManagementClient, Route, RouteTable } from '@azure/arm-network';
import { AzureApiError } from '../azure-api-error.js';
import type { AzureNetworkInterface, AzureRoute, AzureRouteTable, NetworkPort } from '../network-port.js';
import { createSdkLoadBalancingPort, ifMatchOptions } from './sdk-load-balancing-port.js';
import { parseArmResourceId } from '../../arm-resource-id.js';
import { callAzure, toAzureApiError } from './sdk-errors.js';

import { LRO_POLL_INTERVAL_MS, pollSimplePoller } from './lro-poll-interval.js';

export { LRO_POLL_INTERVAL_MS };

function networkInterfaceOf(nic: NetworkInterface): AzureNetworkInterface {
  return {
    id: nic.id ?? '',
    name: nic.name ?? '',
    ...(nic.etag === undefined ? {} : { etag: nic.etag }),
    ipConfigurations: (nic.ipConfigurations ?? []).map((config) => ({
      name: config.name ?? '',
      primary: config.primary === true,
      ...(config.privateIPAddress === undefined ? {} : { privateIpAddress: config.privateIPAddress }),
      privateIpVersion: config.privateIPAddressVersion === 'IPv6' ? 'IPv6' : 'IPv4',
      ...(config.publicIPAddress?.id === undefined ? {} : { publicIpAddressId: config.publicIPAddress.id }),
      loadBalancerBackendAddressPoolIds: (config.loadBalancerBackendAddressPools ?? []).map((pool) => pool.id ?? '').filter((id) => id !== ''),
    })),
  };
}

function routeOf(route: Route): AzureRoute {
  return {
    name: route.name ?? '',
    addressPrefix: route.addressPrefix ?? '',
    nextHopType: route.nextHopType ?? '',
    ...(route.nextHopIpAddress === undefined ? {} : { nextHopIpAddress: route.nextHopIpAddress }),
  };
}

function routeTableOf(table: RouteTable): AzureRouteTable {
  return {
    name: table.name ?? '',
    location: table.location ?? '',
    ...(table.etag === undefined ? {} : { etag: table.etag }),
    tags: { ...table.tags },
    routes: (table.routes ?? []).map(routeOf),
  };
}

function badId(operation: string, id: string): AzureApiError {
  return new AzureApiError(`not a resource ID this provider can read: ${JSON.stringify(id)}`, { kind: 'Invalid', code: 'InvalidResourceId', operation, retryable: false });
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

export function createSdkNetworkPort(client: NetworkManagementClient): NetworkPort {
  return {
    ...createSdkLoadBalancingPort(client),
    setNetworkInterfaceBackendPools: (networkInterfaceId, ipConfigurationName, poolIds, condition, options) => {
      const operation = 'network.setNetworkInterfaceBackendPools';
      const parsed = parseArmResourceId(networkInterfaceId);
      const types = parsed?.segments.map(([type]) => type.toLowerCase()).join('/');
      return callAzure(operation, async () => {
        if (!parsed || types !== 'networkinterfaces') throw badId(operation, networkInterfaceId);
        const name = parsed.segments[0]?.[1] as string;
        const nic = await client.networkInterfaces.get(parsed.resourceGroup, name, { abortSignal: options?.signal });
        if (condition.ifMatch !== undefined && nic.etag !== condition.ifMatch) {
          throw new AzureApiError(`the network interface changed since it was read (etag ${String(nic.etag)}, expected ${condition.ifMatch})`, { kind: 'PreconditionFailed', code: 'PreconditionFailed', operation, retryable: false, httpStatus: 412 });
        }
        const configuration = (nic.ipConfigurations ?? []).find((candidate) => candidate.name === ipConfigurationName);
        if (!configuration) throw new AzureApiError(`no IP configuration ${ipConfigurationName} on ${networkInterfaceId}`, { kind: 'NotFound', code: 'NotFound', operation, retryable: false });
        configuration.loadBalancerBackendAddressPools = poolIds.map((id) => ({ id }));
        await pollSimplePoller(await client.networkInterfaces.beginCreateOrUpdate(parsed.resourceGroup, name, nic, { ...ifMatchOptions(nic.etag), abortSignal: options?.signal }), options?.signal);
      });
    },
    listNetworkInterfaces: (resourceGroup, options) =>
      callAzure('network.listNetworkInterfaces', async () => (await collect(client.networkInterfaces.list(resourceGroup, { abortSignal: options?.signal }))).map(networkInterfaceOf)),
    listScaleSetNetworkInterfaces: (resourceGroup, scaleSetName, options) =>
      callAzure('network.listScaleSetNetworkInterfaces', async () =>
        (await collect(client.networkInterfaces.listVirtualMachineScaleSetNetworkInterfaces(resourceGroup, scaleSetName, { abortSignal: options?.signal }))).map(networkInterfaceOf),
      ),
    listPublicIpAddresses: (resourceGroup, options) =>
      callAzure('network.listPublicIpAddresses', async () =>
        (await collect(client.publicIPAddresses.list(resourceGroup, { abortSignal: options?.signal }))).map((address) => ({ id: address.id ?? '', ipAddress: address.ipAddress ?? '' })),
      ),
    getNetworkInterface: (networkInterfaceId, options) => {
      const operation = 'network.getNetworkInterface';
      const parsed = parseArmResourceId(networkInterfaceId);
      const names = parsed?.segments.map(([, name]) => name) ?? [];
      const types = parsed?.segments.map(([type]) => type.toLowerCase()).join('/');
      return callAzure(operation, async () => {
        if (parsed && types === 'networkinterfaces') {
          return networkInterfaceOf(await client.networkInterfaces.get(parsed.resourceGroup, names[0] as string, { abortSignal: options?.signal }));
        }
        if (parsed && types === 'virtualmachinescalesets/virtualmachines/networkinterfaces') {
          const [scaleSet, instanceId, nic] = names as [string, string, string];
          return networkInterfaceOf(await client.networkInterfaces.getVirtualMachineScaleSetNetworkInterface(parsed.resourceGroup, scaleSet, instanceId, nic, { abortSignal: options?.signal }));
        }
        throw badId(operation, networkInterfaceId);
      });
    },
    getPublicIpAddress: (publicIpAddressId, options) => {
      const operation = 'network.getPublicIpAddress';
      const parsed = parseArmResourceId(publicIpAddressId);
      const names = parsed?.segments.map(([, name]) => name) ?? [];
      const types = parsed?.segments.map(([type]) => type.toLowerCase()).join('/');
      return callAzure(operation, async () => {
        if (parsed && types === 'publicipaddresses') {
          return (await client.publicIPAddresses.get(parsed.resourceGroup, names[0] as string, { abortSignal: options?.signal })).ipAddress ?? '';
        }
        if (parsed && types === 'virtualmachinescalesets/virtualmachines/networkinterfaces/ipconfigurations/publicipaddresses') {
          const [scaleSet, instanceId, nic, ipConfiguration, name] = names as [string, string, string, string, string];
          const address = await client.publicIPAddresses.getVirtualMachineScaleSetPublicIPAddress(parsed.resourceGroup, scaleSet, instanceId, nic, ipConfiguration, name, { abortSignal: options?.signal });
          return address.ipAddress ?? '';
        }
        throw badId(operation, publicIpAddressId);
      });
    },
    getRouteTable: (resourceGroup, name, options) =>
      callAzure('network.getRouteTable', async () => routeTableOf(await client.routeTables.get(resourceGroup, name, { abortSignal: options?.signal }))),
    createRouteTable: (resourceGroup, table, options) =>
      callAzure('network.createRouteTable', async () =>
        routeTableOf(
          await client.routeTables.beginCreateOrUpdateAndWait(resourceGroup, table.name, { location: table.location, tags: table.tags, routes: [] }, {
            abortSignal: options?.signal,
            updateIntervalInMs: LRO_POLL_INTERVAL_MS,
          }),
        ),
      ),
    putRoute: (resourceGroup, tableName, route, options) =>
      callAzure('network.putRoute', async () => {
        await client.routes.beginCreateOrUpdateAndWait(
          resourceGroup,
          tableName,
          route.name,
          { addressPrefix: route.addressPrefix, nextHopType: route.nextHopType, ...(route.nextHopIpAddress === undefined ? {} : { nextHopIpAddress: route.nextHopIpAddress }) },
          { abortSignal: options?.signal, updateIntervalInMs: LRO_POLL_INTERVAL_MS },
        );
      }),
    deleteRoute: async (resourceGroup, tableName, routeName, options) => {
      try {
        await client.routes.beginDeleteAndWait(resourceGroup, tableName, routeName, { abortSignal: options?.signal, updateIntervalInMs: LRO_POLL_INTERVAL_MS });
      } catch (error) {
        const typed = toAzureApiError(error, 'network.deleteRoute');
        if (typed.kind === 'NotFound') return;
        throw typed;
      }
    },
  };
}
