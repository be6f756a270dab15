#!/usr/bin/env node
// Runs the sandbox cloud as a standalone HTTP server (e.g. in a cluster, or next to a CCM you
// start by hand). Prints its URL, then serves until SIGINT/SIGTERM.
import { errorMessage } from '@ccm/core/util';
import { parseArgs } from 'node:util';
import { startSandboxCloud, type StartSandboxCloudOptions } from '../sandbox/start-sandbox-cloud.js';

const USAGE = `Usage: sandbox-cloud [--host=127.0.0.1] [--port=0] [--region=sandbox-1] [--latency-ms=N]
                     [--qps=N --burst=N] [--error-rate=0..1] [--seed=N]
`;

function number(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error(`--${name} must be a number, got ${JSON.stringify(text)}`);
  return value;
}

async function main(): Promise<number> {
  let options: StartSandboxCloudOptions;
  try {
    const { values } = parseArgs({
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        region: { type: 'string' },
        'latency-ms': { type: 'string' },
        qps: { type: 'string' },
        burst: { type: 'string' },
        'error-rate': { type: 'string' },
        seed: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
    if (values.help === true) {
      process.stdout.write(USAGE);
      return 0;
    }
    options = { host: values.host ?? '127.0.0.1', port: number('port', values.port) ?? 0 };
    if (values.region !== undefined) options.state = { region: values.region };
    const latencyMs = number('latency-ms', values['latency-ms']);
    if (latencyMs !== undefined) options.latencyMs = latencyMs;
    const qps = number('qps', values.qps);
    if (qps !== undefined) options.rateLimit = { qps, burst: number('burst', values.burst) ?? Math.max(1, Math.ceil(qps)) };
    const errorRate = number('error-rate', values['error-rate']);
    if (errorRate !== undefined) options.errorRate = errorRate;
    const seed = number('seed', values.seed);
    if (seed !== undefined) options.seed = seed;
  } catch (error) {
    process.stderr.write(`sandbox-cloud: ${errorMessage(error)}\n${USAGE}`);
    return 2;
  }
  const cloud = await startSandboxCloud(options);
  process.stdout.write(`${cloud.url}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await cloud.close();
  return 0;
}

process.exitCode = await main();
