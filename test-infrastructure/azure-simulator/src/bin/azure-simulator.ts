#!/usr/bin/env node
/**
 * azure-simulator --port 0 --endpoint-file FILE [--location L] [--subscription-id ID]
 *   [--tenant-id ID] [--client-id ID] [--client-secret S] [--static-token T]
 *   [--polls-before-done N] [--throttle-rps R [--throttle-burst B]] [--page-size N]
 *   [--token-lifetime-seconds S] [--schema-file SCHEMA.json] [--imds-port N]
 *   [--client-certificate-file CERT.pem]... [--federated-credential ISSUER,SUBJECT,ISSUER_KEY.pem]...
 *
 * Serves Entra ID + ARM over HTTPS and IMDS (managed identity tokens) over HTTP, writes the endpoint JSON to FILE, runs until SIGTERM/SIGINT
 * (exit 0). Bad flags: exit 2 naming the flag.
 */
import { readFileSync } from 'node:fs';
import { writeFile, rename } from 'node:fs/promises';
import { endpointOf, startAzureSimulator, type AzureSimulatorOptions } from '../start-azure-simulator.js';

const USAGE =
  'usage: azure-simulator --port 0 --endpoint-file FILE [--location L] [--subscription-id ID] [--tenant-id ID] [--client-id ID] [--client-secret S] [--static-token T] [--polls-before-done N] [--throttle-rps R] [--throttle-burst B] [--page-size N] [--token-lifetime-seconds S] [--schema-file SCHEMA.json] [--imds-port N] [--client-certificate-file CERT.pem]... [--federated-credential ISSUER,SUBJECT,ISSUER_KEY.pem]...';

class FlagError extends Error {}

interface Flags {
  options: AzureSimulatorOptions;
  endpointFile: string;
}

function readPem(flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new FlagError(`${flag}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

export function parseFlags(argv: readonly string[]): Flags {
  const options: AzureSimulatorOptions = {};
  let endpointFile: string | undefined;
  let throttleRps: number | undefined;
  let throttleBurst: number | undefined;
  const integer = (flag: string, text: string, min: number, max: number): number => {
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new FlagError(`${flag} must be an integer between ${min} and ${max}, got ${JSON.stringify(text)}`);
    return Number(text);
  };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    const [flag, inline] = argument.startsWith('--') && argument.includes('=') ? [argument.slice(0, argument.indexOf('=')), argument.slice(argument.indexOf('=') + 1)] : [argument, undefined];
    const value = (): string => {
      const next = inline ?? argv[++index];
      if (next === undefined || next === '') throw new FlagError(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '--port':
        options.port = integer(flag, value(), 0, 65535);
        break;
      case '--endpoint-file':
        endpointFile = value();
        break;
      case '--location':
        options.location = value();
        break;
      case '--subscription-id':
        options.subscriptionId = value();
        break;
      case '--tenant-id':
        options.tenantId = value();
        break;
      case '--client-id':
        options.clientId = value();
        break;
      case '--client-secret':
        options.clientSecret = value();
        break;
      case '--token-lifetime-seconds':
        options.tokenLifetimeSeconds = integer(flag, value(), 1, 86_400);
        break;
      case '--page-size':
        options.pageSize = integer(flag, value(), 1, 100_000);
        break;
      case '--schema-file':
        options.schemaFile = value();
        break;
      case '--imds-port':
        options.imdsPort = integer(flag, value(), 0, 65535);
        break;
      case '--client-certificate-file':
        options.clientCertificates = [...(options.clientCertificates ?? []), readPem(flag, value())];
        break;
      case '--federated-credential': {
        const [issuer, subject, keyFile, ...rest] = value().split(',');
        if (issuer === undefined || issuer === '' || subject === undefined || subject === '' || keyFile === undefined || keyFile === '' || rest.length > 0) {
          throw new FlagError('--federated-credential must be ISSUER,SUBJECT,ISSUER_KEY.pem');
        }
        options.federatedCredentials = [...(options.federatedCredentials ?? []), { issuer, subject, issuerKeyPem: readPem(flag, keyFile) }];
        break;
      }
      case '--static-token':
        options.staticToken = value();
        break;
      case '--polls-before-done':
        options.pollsBeforeDone = integer(flag, value(), 0, 1000);
        break;
      case '--throttle-rps': {
        const text = value();
        throttleRps = Number(text);
        if (!(throttleRps > 0)) throw new FlagError(`--throttle-rps must be a positive number, got ${JSON.stringify(text)}`);
        break;
      }
      case '--throttle-burst':
        throttleBurst = integer(flag, value(), 1, 1_000_000);
        break;
      case '--help':
      case '-h':
        process.stdout.write(`${USAGE}\n`);
        process.exit(0);
        break;
      default:
        throw new FlagError(`unknown flag ${argument}`);
    }
  }
  if (endpointFile === undefined) throw new FlagError('--endpoint-file is required');
  if (throttleBurst !== undefined && throttleRps === undefined) throw new FlagError('--throttle-burst needs --throttle-rps');
  if (throttleRps !== undefined) options.throttle = { requestsPerSecond: throttleRps, ...(throttleBurst !== undefined ? { burst: throttleBurst } : {}) };
  return { options, endpointFile };
}

async function main(): Promise<void> {
  let flags: Flags;
  try {
    flags = parseFlags(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof FlagError)) throw error;
    process.stderr.write(`azure-simulator: ${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  const simulator = await startAzureSimulator(flags.options);
  const temporary = `${flags.endpointFile}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(endpointOf(simulator), null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, flags.endpointFile);
  process.stdout.write(`azure-simulator listening on ${simulator.resourceManagerEndpoint} (IMDS on ${simulator.imdsEndpoint})\nazure-simulator endpoint written to ${flags.endpointFile}\n`);
  const stop = () => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`azure-simulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
