#!/usr/bin/env node
/**
 * openstack-services --endpoint-file FILE [--region R] [--keep-directory]
 * Starts the services, writes the endpoint JSON to FILE (mode 0600) and runs until SIGINT or
 * SIGTERM, then stops every process and removes its temporary directory.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openStackServicesUnavailableReason } from '../openstack-services-availability.js';
import { startOpenStackServices, type OpenStackEndpoint } from '../start-openstack-services.js';

const usage = 'usage: openstack-services --endpoint-file FILE [--region REGION] [--keep-directory]';

async function main(): Promise<number> {
  let values: { 'endpoint-file'?: string; region?: string; 'keep-directory'?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { 'endpoint-file': { type: 'string' }, region: { type: 'string' }, 'keep-directory': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    console.error(`openstack-services: ${(error as Error).message}\n${usage}`);
    return 2;
  }
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const endpointFile = values['endpoint-file'];
  if (endpointFile === undefined || endpointFile === '') {
    console.error(`openstack-services: --endpoint-file is required\n${usage}`);
    return 2;
  }
  const reason = openStackServicesUnavailableReason();
  if (reason !== undefined) {
    console.error(`openstack-services: cannot start: ${reason}`);
    return 1;
  }
  const stop = new AbortController();
  const stopped = new Promise<void>((resolve) => {
    const onSignal = (): void => {
      stop.abort();
      resolve();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  const services = await startOpenStackServices({
    signal: stop.signal,
    ...(values.region === undefined ? {} : { region: values.region }),
    keepDirectory: values['keep-directory'] ?? false,
    log: (line) => console.error(`openstack-services: ${line}`),
  });
  const endpoint: OpenStackEndpoint = {
    authUrl: services.authUrl,
    region: services.region,
    username: services.username,
    password: services.password,
    projectName: services.projectName,
    userDomainName: services.userDomainName,
    projectDomainName: services.projectDomainName,
    ...(services.caFile === undefined ? {} : { caFile: services.caFile }),
    octaviaWorkerProcessGroup: services.octaviaWorkerProcessGroup,
  };
  // Written whole, then renamed: a reader waiting for the file never sees half of it.
  writeFileSync(`${endpointFile}.partial`, `${JSON.stringify(endpoint, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${endpointFile}.partial`, endpointFile);
  console.error(`openstack-services: ready (${services.timings['total']?.toFixed(1)} s); endpoint in ${endpointFile}; logs in ${services.directory}`);
  await stopped;
  await services.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`openstack-services: ${(error as Error).message}`);
    process.exit(1);
  },
);
