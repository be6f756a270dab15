/**
 * The `openstack` CLI (Debian's python3-openstackclient with python3-octaviaclient) run against
 * an endpoint (the services' endpoint file): a second, independent client to read back what
 * openstack-client-ts or a cloud controller manager made.
 *
 *   const cli = new OpenStackCli(endpoint);
 *   const server = await cli.json<{ status: string }>(['server', 'show', id]);   // openstack server show ID -f json
 *   await cli.run(['router', 'set', '--route', 'destination=...,gateway=...', routerId]);
 *
 * Each call writes a clouds.yaml (without the password, mode 0600) into a temporary directory
 * that is also HOME, and runs the CLI with only PATH, HOME, LANG, OS_CLIENT_CONFIG_FILE, OS_CLOUD,
 * OS_PASSWORD (and OS_CACERT with TLS) in its environment, so no user configuration leaks in;
 * `caFile` is also the clouds.yaml `cacert`.
 * The services have no image service (Glance): the image endpoint is set to an unused loopback
 * port with `image_api_version: 2`, so `server show`/`server list` fall back to the image ID as
 * the CLI does when an image lookup fails (pass `-n` to `server list`).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCommand } from './openstack-services-availability.js';
import type { OpenStackEndpoint } from './start-openstack-services.js';

export const OPENSTACK_CLI_INSTALL_HINT =
  'run `bash .ci/install-prerequisites` as root (section openstack-cli), or `apt-get install --no-install-recommends python3-openstackclient=6.0.0-4 python3-octaviaclient=3.1.0-2` on Debian bookworm';

/** An address nothing listens on (the discard port of loopback): the image lookups fail fast. */
const NO_IMAGE_SERVICE = 'http://127.0.0.1:9/';

export interface OpenStackCliOptions {
  /** The CLI; default `openstack` on PATH. */
  command?: string;
  /** Per call; default 120 s (the CLI takes 3-6 s to start on a busy machine). */
  timeoutMs?: number;
}

export class OpenStackCliError extends Error {
  readonly args: readonly string[];
  readonly exitCode: number | null;
  readonly stderr: string;

  constructor(message: string, args: readonly string[], exitCode: number | null, stderr: string) {
    super(message);
    this.name = 'OpenStackCliError';
    this.args = args;
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

/** Why the CLI cannot run here, or undefined. */
export function openStackCliUnavailableReason(command = 'openstack'): string | undefined {
  const path = findCommand(command);
  if (path === undefined) return `the ${command} command (python3-openstackclient) is not installed`;
  const plugin = spawnSync('/usr/bin/python3', ['-c', 'import octaviaclient.osc.v2.load_balancer'], { encoding: 'utf8' });
  if (plugin.status !== 0) return "the CLI's Octavia plugin (python3-octaviaclient) is not installed";
  return undefined;
}

/** The clouds.yaml of an endpoint (no password: it goes in OS_PASSWORD). */
export function cloudsYaml(endpoint: OpenStackEndpoint, cloud: string): string {
  const quote = (value: string): string => JSON.stringify(value);
  return [
    'clouds:',
    `  ${cloud}:`,
    '    auth:',
    `      auth_url: ${quote(endpoint.authUrl)}`,
    `      username: ${quote(endpoint.username)}`,
    `      project_name: ${quote(endpoint.projectName)}`,
    `      user_domain_name: ${quote(endpoint.userDomainName)}`,
    `      project_domain_name: ${quote(endpoint.projectDomainName)}`,
    `    region_name: ${quote(endpoint.region)}`,
    '    identity_api_version: 3',
    '    interface: public',
    ...(endpoint.caFile === undefined ? [] : [`    cacert: ${quote(endpoint.caFile)}`]),
    `    image_endpoint_override: ${quote(NO_IMAGE_SERVICE)}`,
    "    image_api_version: '2'",
    '',
  ].join('\n');
}

export class OpenStackCli {
  readonly endpoint: OpenStackEndpoint;
  readonly #command: string;
  readonly #timeoutMs: number;

  constructor(endpoint: OpenStackEndpoint, options: OpenStackCliOptions = {}) {
    this.endpoint = endpoint;
    this.#command = options.command ?? 'openstack';
    this.#timeoutMs = options.timeoutMs ?? 120_000;
  }

  /** A CLI for the services named by an endpoint file (`openstack-services --endpoint-file`). */
  static fromEndpointFile(file: string, options: OpenStackCliOptions = {}): OpenStackCli {
    return new OpenStackCli(JSON.parse(readFileSync(file, 'utf8')) as OpenStackEndpoint, options);
  }

  /** `openstack ARGS -f json`, parsed (for show, list and create commands). */
  async json<T = unknown>(args: readonly string[]): Promise<T> {
    const output = await this.run([...args, '-f', 'json']);
    try {
      return JSON.parse(output) as T;
    } catch (error) {
      throw new OpenStackCliError(`openstack ${args.join(' ')}: the output is not JSON: ${output.slice(0, 300)}`, args, 0, '');
    }
  }

  /** `openstack ARGS`; resolves with its standard output, rejects with OpenStackCliError on failure. */
  async run(args: readonly string[]): Promise<string> {
    const command = findCommand(this.#command) ?? this.#command;
    const home = mkdtempSync(join(tmpdir(), 'openstack-cli-'));
    const cloud = 'openstack-services';
    try {
      writeFileSync(join(home, 'clouds.yaml'), cloudsYaml(this.endpoint, cloud), { mode: 0o600 });
      const env: NodeJS.ProcessEnv = {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: home,
        LANG: 'C.UTF-8',
        OS_CLIENT_CONFIG_FILE: join(home, 'clouds.yaml'),
        OS_CLOUD: cloud,
        OS_PASSWORD: this.endpoint.password,
        ...(this.endpoint.caFile === undefined ? {} : { OS_CACERT: this.endpoint.caFile }),
      };
      return await new Promise<string>((resolve, reject) => {
        execFile(command, [...args], { env, cwd: home, timeout: this.#timeoutMs, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
          if (error === null) {
            resolve(stdout);
            return;
          }
          const clean = this.#redact(stderr.trim() || error.message);
          const exitCode = typeof error.code === 'number' ? error.code : null;
          const why = error.killed ? `timed out after ${this.#timeoutMs / 1000} s` : `failed (exit ${String(exitCode)})`;
          reject(new OpenStackCliError(`openstack ${this.#redact(args.join(' '))} ${why}: ${clean.split('\n').slice(-5).join('\n')}`, args, exitCode, clean));
        });
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }

  #redact(text: string): string {
    return this.endpoint.password === '' ? text : text.split(this.endpoint.password).join('***');
  }
}
