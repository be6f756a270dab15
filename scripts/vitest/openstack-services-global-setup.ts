/**
 * Global setup of the vitest project `openstack-services` (the test files that use the real
 * Keystone, Neutron and Octavia but do not test their start-up): one start of the services for
 * all of them instead of one per file (each start is 42-110 s of MariaDB, RabbitMQ and three
 * database migrations). vitest runs it only when a file of that project is selected.
 *
 * The services start in the background (the `openstack-services` bin, built by the workspace
 * build) and the endpoint file is named at once through OPENSTACK_SERVICES_ENDPOINT_FILE, so the
 * run does not wait: each file's `openStackServicesForTests()` waits for the file, or for
 * `<file>.error` when the start failed. When the services cannot run here (packages missing),
 * nothing starts and nothing is set: each file fails under CI=true or skips loudly, as on its own.
 * An endpoint file already set by the caller (a CI job's services) is used as it is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStackServicesUnavailableReason } from '../../test-infrastructure/openstack-services/src/openstack-services-availability.js';
import { ENDPOINT_FILE_VARIABLE, endpointErrorFile } from '../../test-infrastructure/openstack-services/src/openstack-services-for-tests.js';

const SERVICES_BIN = fileURLToPath(new URL('../../test-infrastructure/openstack-services/dist/bin/openstack-services.js', import.meta.url));
const STOP_TIMEOUT_MS = 60_000;

export default function setup(): (() => Promise<void>) | undefined {
  if ((process.env[ENDPOINT_FILE_VARIABLE] ?? '') !== '') return undefined;
  if (openStackServicesUnavailableReason() !== undefined) return undefined;
  const directory = mkdtempSync(join(tmpdir(), 'ccm-shared-openstack-'));
  const endpointFile = join(directory, 'endpoint.json');
  const logFile = join(directory, 'openstack-services.log');
  process.env[ENDPOINT_FILE_VARIABLE] = endpointFile;
  if (!existsSync(SERVICES_BIN)) {
    writeFileSync(endpointErrorFile(endpointFile), `${SERVICES_BIN} is missing: build the workspace first (npx -y pnpm@10.34.8 build)\n`);
    return async () => rmSync(directory, { recursive: true, force: true });
  }
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [SERVICES_BIN, '--endpoint-file', endpointFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      if (!existsSync(endpointFile)) writeFileSync(endpointErrorFile(endpointFile), `openstack-services exited (${signal ?? `code ${code}`}) before it was ready; the end of ${logFile}:\n${tail(logFile)}\n`);
      resolve();
    });
    child.once('error', (error) => {
      writeFileSync(endpointErrorFile(endpointFile), `openstack-services did not start: ${error.message}\n`);
      resolve();
    });
  });
  return async () => {
    await stop(child, exited);
    log.end();
    rmSync(directory, { recursive: true, force: true });
  };
}

/** SIGTERM (the bin stops every service and removes its directory), SIGKILL if it hangs. */
async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), STOP_TIMEOUT_MS);
  });
  const hung = await Promise.race([exited.then(() => false), timedOut]);
  clearTimeout(timer);
  if (hung) {
    child.kill('SIGKILL');
    await exited;
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}
