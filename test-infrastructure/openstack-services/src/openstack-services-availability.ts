/**
 * Whether the Debian packages the services run from are installed here (the `describe` wrapper
 * for test suites is in openstack-services-suite.ts, exported as `@ccm/openstack-services/suite`).
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export const OPENSTACK_SERVICES_INSTALL_HINT =
  'run `bash .ci/install-prerequisites` as root (section openstack-services), or `apt-get install --no-install-recommends ' +
  'python3-keystone python3-neutron neutron-common python3-octavia python3-pymysql mariadb-server rabbitmq-server` on Debian bookworm';

/** Directories searched besides PATH: the server binaries live in sbin and RabbitMQ's own bin. */
const EXTRA_DIRECTORIES = ['/usr/sbin', '/usr/lib/rabbitmq/bin'];

const REQUIRED_COMMANDS = [
  'mariadb-install-db',
  'mariadbd',
  'mariadb',
  'epmd',
  'rabbitmq-server',
  'keystone-manage',
  'keystone-wsgi-public',
  'neutron-db-manage',
  'neutron-server',
  'octavia-db-manage',
  'octavia-api',
  'octavia-worker',
] as const;

export type OpenStackCommand = (typeof REQUIRED_COMMANDS)[number];

/**
 * Commands found at a fixed place first: /usr/sbin/rabbitmq-server is Debian's wrapper that
 * switches to the `rabbitmq` user; the broker itself is in RabbitMQ's own bin directory.
 */
const PREFERRED_PATHS: Readonly<Record<string, string>> = { 'rabbitmq-server': '/usr/lib/rabbitmq/bin/rabbitmq-server' };

/** The absolute path of a command, or undefined. */
export function findCommand(name: string): string | undefined {
  const preferred = PREFERRED_PATHS[name];
  if (preferred !== undefined) return executable(preferred) ? preferred : undefined;
  const directories = [...(process.env['PATH'] ?? '').split(delimiter), ...EXTRA_DIRECTORIES].filter((directory) => directory !== '');
  for (const directory of directories) {
    const candidate = join(directory, name);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why the services cannot start here, or undefined. */
export function openStackServicesUnavailableReason(): string | undefined {
  if (process.platform !== 'linux') return `the services run on Linux only (this is ${process.platform})`;
  const missing = REQUIRED_COMMANDS.filter((name) => findCommand(name) === undefined);
  if (missing.length > 0) return `missing commands: ${missing.join(', ')}`;
  if (!existsSync('/etc/neutron/api-paste.ini')) return '/etc/neutron/api-paste.ini (package neutron-common) is missing';
  const python = spawnSync('/usr/bin/python3', ['-c', 'import pymysql, neutron.tests.unit.plugins.ml2.drivers.mechanism_test'], { encoding: 'utf8' });
  if (python.status !== 0) return `/usr/bin/python3 (Debian's, which the services' scripts run) cannot import pymysql and Neutron's test mechanism driver: ${(python.stderr || python.error?.message || '').trim().split('\n').pop() ?? ''}`;
  return undefined;
}

