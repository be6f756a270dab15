#!/usr/bin/env node
// Runs the GCE Compute API simulator; writes its endpoint as JSON to --endpoint-file, then serves
// until SIGTERM/SIGINT (exit 0).
import { writeFileSync, renameSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startGceSimulator, type GceSimulatorOptions } from '../start-gce-simulator.js';

const USAGE = `Usage: gce-simulator --endpoint-file FILE [--port 0] [--host 127.0.0.1] [--project ccm-test-project]
                     [--region us-central1] [--zones us-central1-a,us-central1-b] [--network default]
                     [--discovery-document compute.v1.json] [--allow-anonymous] [--log-requests]
`;

async function main(): Promise<number> {
  let options: GceSimulatorOptions;
  let endpointFile: string;
  try {
    const { values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'endpoint-file': { type: 'string' },
        project: { type: 'string' },
        region: { type: 'string' },
        zones: { type: 'string' },
        network: { type: 'string' },
        'discovery-document': { type: 'string' },
        'allow-anonymous': { type: 'boolean' },
        'log-requests': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
    if (values.help === true) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (values['endpoint-file'] === undefined) throw new Error('--endpoint-file is required');
    endpointFile = values['endpoint-file'];
    const port = Number(values.port ?? '0');
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, got ${JSON.stringify(values.port)}`);
    options = { port, host: values.host ?? '127.0.0.1' };
    if (values.project !== undefined) options.project = values.project;
    if (values.region !== undefined) options.region = values.region;
    if (values.zones !== undefined) options.zones = values.zones.split(',').map((zone) => zone.trim()).filter((zone) => zone !== '');
    if (values.network !== undefined) options.network = values.network;
    if (values['discovery-document'] !== undefined) options.discoveryDocument = values['discovery-document'];
    if (values['allow-anonymous'] === true) options.allowAnonymous = true;
    if (values['log-requests'] === true) options.logRequest = (line) => process.stderr.write(`gce-simulator: ${line}\n`);
  } catch (error) {
    process.stderr.write(`gce-simulator: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  let simulator;
  try {
    simulator = await startGceSimulator(options);
  } catch (error) {
    process.stderr.write(`gce-simulator: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  const endpoint = {
    url: simulator.url,
    project: simulator.project,
    region: simulator.region,
    zones: simulator.zones,
    network: simulator.network,
    tokenUrl: simulator.tokenUrl,
    metadataHost: simulator.metadataHost,
  };
  // Written whole, then renamed, so a reader never sees half a file.
  writeFileSync(`${endpointFile}.tmp`, `${JSON.stringify(endpoint)}\n`);
  renameSync(`${endpointFile}.tmp`, endpointFile);
  process.stderr.write(`gce-simulator: serving project ${simulator.project} on ${simulator.url}/compute/v1/${simulator.discoveryRevision === undefined ? '' : ` (checked against discovery revision ${simulator.discoveryRevision})`}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await simulator.close();
  return 0;
}

process.exitCode = await main();
