/**
 * Starts real Keystone, Neutron and Octavia (Debian bookworm's OpenStack Zed) on 127.0.0.1, with
 * MariaDB (databases) and RabbitMQ (Octavia's and Neutron's RPC), everything under one temporary
 * directory, no systemd, no root needed. Neutron and Octavia are registered in Keystone's catalog,
 * with the Nova stand-in (src/nova/, in this process) as `compute`.
 *
 * Order, with what can run in parallel side by side:
 *   MariaDB (install-db, mariadbd)  |  epmd + RabbitMQ  |  keystone-manage fernet_setup, credential_setup
 *   -> keystone db_sync, bootstrap, keystone (threaded WSGI)  |  neutron-db-manage  |  octavia-db-manage
 *   -> catalog entries; neutron-server  |  octavia-api (threaded WSGI) + octavia-worker
 *   -> the Nova stand-in and its catalog entry (once Keystone and Neutron answer)
 * `close()` stops every process group and removes the directory.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { issueCertificate } from '@ccm/self-signed-certificate';
import { findCommand } from './openstack-services-availability.js';
import { delay, ManagedProcess, runToCompletion } from './managed-process.js';
import { freePorts } from './free-ports.js';
import { scriptInterpreter, writeThreadedWsgiScript } from './threaded-wsgi-server.js';
import {
  keystoneConfiguration,
  keystoneUrl,
  neutronConfiguration,
  octaviaConfiguration,
  octaviaWorkerLoggingConfiguration,
  rabbitmqConfiguration,
  type ServicesLayout,
} from './service-configuration.js';
import { registerService } from './keystone-catalog.js';
import { startNovaStandIn, type NovaStandIn } from './nova/nova-stand-in.js';

/** What `--endpoint-file` holds: enough for a client (or the CCM's cloud.conf) to authenticate. */
export interface OpenStackEndpoint {
  authUrl: string;
  region: string;
  username: string;
  password: string;
  projectName: string;
  userDomainName: string;
  projectDomainName: string;
  caFile?: string;
  /**
   * For tests only: the process group of the octavia-worker, which `holdingOctaviaWorker` stops to
   * hold load balancers PENDING_*. Absent when the endpoint names services we did not start.
   */
  octaviaWorkerProcessGroup?: number;
}

export interface OpenStackServices extends OpenStackEndpoint {
  /** The temporary directory with every configuration, database and log. */
  directory: string;
  /** Service URLs as registered in the catalog. */
  neutronUrl: string;
  octaviaUrl: string;
  /** The Nova stand-in's versioned endpoint (`http://127.0.0.1:PORT/v2.1`), catalog type `compute`. */
  novaUrl: string;
  /** The octavia-worker's process group (see `holdingOctaviaWorker`). */
  octaviaWorkerProcessGroup: number;
  /** Seconds each phase took, and the total. */
  timings: Record<string, number>;
  close(): Promise<void>;
}

export interface StartOpenStackServicesOptions {
  /** Default `RegionOne`. */
  region?: string;
  /** Parent of the temporary directory; default the OS temp dir (keep it short: MariaDB's socket path must fit 107 bytes). */
  parentDirectory?: string;
  /** Keep the directory (logs) after close(); default false. */
  keepDirectory?: boolean;
  /** Progress lines (phase and seconds); default none. */
  log?: (line: string) => void;
  /** Give up after this long; default 240 s. */
  timeoutMs?: number;
  /** Aborting stops whatever has started, removes the directory and rejects. */
  signal?: AbortSignal;
}

export async function startOpenStackServices(options: StartOpenStackServicesOptions = {}): Promise<OpenStackServices> {
  const started = Date.now();
  const timings: Record<string, number> = {};
  const log = options.log ?? (() => undefined);
  const timeoutMs = options.timeoutMs ?? 240_000;
  const deadline = started + timeoutMs;
  // Phases run side by side; each promise is marked handled at once (a failure while another
  // phase is awaited must not crash the process) and awaited later, which rethrows it.
  const measure = <T>(phase: string, work: () => Promise<T>): Promise<T> => {
    const phaseStart = Date.now();
    const promise = work().then((result) => {
      timings[phase] = (Date.now() - phaseStart) / 1000;
      log(`${phase}: ${timings[phase]!.toFixed(1)} s`);
      return result;
    });
    promise.catch(() => undefined);
    return promise;
  };

  const root = mkdtempSync(join(options.parentDirectory ?? tmpdir(), 'os-'));
  const processes: ManagedProcess[] = [];
  let nova: NovaStandIn | undefined;
  let octaviaWorkerProcessGroup: number | undefined;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await nova?.close();
      // The OpenStack services first (in parallel), then the broker and the database.
      const infrastructure = new Set(['mariadbd', 'epmd', 'rabbitmq-server']);
      await Promise.all(processes.filter((managed) => !infrastructure.has(managed.name)).map((managed) => managed.stop(3_000)));
      await Promise.all(processes.filter((managed) => infrastructure.has(managed.name)).map((managed) => managed.stop(5_000)));
      if (!options.keepDirectory) rmSync(root, { recursive: true, force: true });
    })();
    return closing;
  };
  const onAbort = (): void => void close();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    for (const name of ['mysql/data', 'mysql/tmp', 'rabbitmq/home', 'keystone', 'neutron/state', 'neutron/lock', 'octavia/lock']) mkdirSync(join(root, name), { recursive: true });
    const [amqp, distribution, epmdPort, keystone, neutron, octavia] = await freePorts(6);
    const region = options.region ?? 'RegionOne';
    const layout: ServicesLayout = {
      root,
      mysqlSocket: join(root, 'mysql', 'mysqld.sock'),
      ports: { amqp: amqp!, keystone: keystone!, neutron: neutron!, octavia: octavia! },
      region,
      admin: { username: 'admin', password: randomBytes(12).toString('hex'), projectName: 'admin', domainName: 'Default' },
      octaviaCa: { certificateFile: join(root, 'octavia', 'ca.pem'), privateKeyFile: join(root, 'octavia', 'ca-key.pem') },
    };
    writeOctaviaCa(layout);
    const keystoneConf = join(root, 'keystone', 'keystone.conf');
    const neutronConf = join(root, 'neutron', 'neutron.conf');
    const octaviaConf = join(root, 'octavia', 'octavia.conf');
    writeFileSync(keystoneConf, keystoneConfiguration(layout));
    writeFileSync(neutronConf, neutronConfiguration(layout));
    writeFileSync(octaviaConf, octaviaConfiguration(layout));
    const user = userInfo().username;
    const threadedWsgi = writeThreadedWsgiScript(root);
    // Keystone and the Octavia API under a threaded server (see threaded-wsgi-server.ts), started
    // with the interpreter of the Debian package's own single-threaded launcher.
    const wsgiArgs = (factory: string, port: number, applicationArgs: string[]): string[] => [threadedWsgi, '--host', '127.0.0.1', '--port', String(port), '--factory', factory, '--', ...applicationArgs];
    const startWith = (name: string, executable: string, args: string[], logFile: string, env?: NodeJS.ProcessEnv): ManagedProcess => {
      if (closing !== undefined) throw new Error(`not starting ${name}: the services are being stopped`);
      const managed = new ManagedProcess({ name, command: executable, args, cwd: root, logFile: join(root, logFile), ...(env === undefined ? {} : { env }) });
      processes.push(managed);
      return managed;
    };
    const start = (name: string, command: string, args: string[], logFile: string, env?: NodeJS.ProcessEnv): ManagedProcess => startWith(name, commandPath(command), args, logFile, env);
    const run = (name: string, command: string, args: string[], logFile: string): Promise<void> =>
      closing !== undefined ? Promise.reject(new Error(`not running ${name}: the services are being stopped`)) : runToCompletion({ name, command: commandPath(command), args, cwd: root, logFile: join(root, logFile), timeoutMs: Math.max(1_000, deadline - Date.now()) });

    const mariadb = measure('mariadb', async () => {
      // Each instance has its own tmpdir: mariadbd removes `#sql*` files it finds in its tmpdir at
      // start, which breaks another instance bootstrapping in a shared /tmp at the same time.
      await run('mariadb-install-db', 'mariadb-install-db', ['--no-defaults', `--datadir=${join(root, 'mysql', 'data')}`, `--tmpdir=${join(root, 'mysql', 'tmp')}`, `--user=${user}`, '--auth-root-authentication-method=normal', '--skip-test-db'], 'mysql/install-db.log');
      const server = start('mariadbd', 'mariadbd', [
        '--no-defaults',
        `--datadir=${join(root, 'mysql', 'data')}`,
        `--tmpdir=${join(root, 'mysql', 'tmp')}`,
        `--socket=${layout.mysqlSocket}`,
        '--skip-networking',
        `--user=${user}`,
        `--pid-file=${join(root, 'mysql', 'mysqld.pid')}`,
        '--innodb-flush-log-at-trx-commit=0',
        '--innodb-doublewrite=0',
        '--skip-log-bin',
      ], 'mysql/mariadbd.log');
      await waitUntil('mariadbd', server, deadline, async () => {
        try {
          await run('mariadb (ping)', 'mariadb', ['--no-defaults', `--socket=${layout.mysqlSocket}`, '-uroot', '-e', 'SELECT 1'], 'mysql/ping.log');
          return true;
        } catch {
          return false;
        }
      });
      await run('mariadb (create databases)', 'mariadb', ['--no-defaults', `--socket=${layout.mysqlSocket}`, '-uroot', '-e', 'CREATE DATABASE keystone; CREATE DATABASE neutron; CREATE DATABASE octavia;'], 'mysql/create.log');
    });

    const rabbitmq = measure('rabbitmq', async () => {
      const rabbitDirectory = join(root, 'rabbitmq');
      writeFileSync(join(rabbitDirectory, 'rabbitmq.conf'), rabbitmqConfiguration(layout));
      writeFileSync(join(rabbitDirectory, 'enabled_plugins'), '[].\n');
      // Our own epmd in the foreground on its own port: the one erl would start is a daemon nobody stops.
      const epmd = start('epmd', 'epmd', ['-port', String(epmdPort), '-address', '127.0.0.1'], 'rabbitmq/epmd.log');
      await waitForPort('epmd', epmd, epmdPort!, deadline);
      const server = start('rabbitmq-server', 'rabbitmq-server', [], 'rabbitmq/server.log', {
        ...process.env,
        HOME: join(rabbitDirectory, 'home'),
        RABBITMQ_NODENAME: `rabbit-${amqp}@localhost`,
        RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
        RABBITMQ_NODE_PORT: String(amqp),
        RABBITMQ_DIST_PORT: String(distribution),
        ERL_EPMD_PORT: String(epmdPort),
        ERL_EPMD_ADDRESS: '127.0.0.1',
        RABBITMQ_CONFIG_FILE: join(rabbitDirectory, 'rabbitmq.conf'),
        RABBITMQ_ADVANCED_CONFIG_FILE: join(rabbitDirectory, 'advanced.config'),
        RABBITMQ_CONF_ENV_FILE: join(rabbitDirectory, 'rabbitmq-env.conf'),
        RABBITMQ_ENABLED_PLUGINS_FILE: join(rabbitDirectory, 'enabled_plugins'),
        RABBITMQ_MNESIA_BASE: join(rabbitDirectory, 'mnesia'),
        RABBITMQ_LOG_BASE: join(rabbitDirectory, 'log'),
        RABBITMQ_PID_FILE: join(rabbitDirectory, 'rabbitmq.pid'),
      });
      await waitForPort('rabbitmq-server', server, amqp!, deadline);
    });

    const keystoneKeys = measure('keystone keys', async () => {
      const keyArgs = ['--keystone-user', user, '--keystone-group', groupName()];
      await Promise.all([
        run('keystone-manage fernet_setup', 'keystone-manage', ['--config-file', keystoneConf, 'fernet_setup', ...keyArgs], 'keystone/fernet-setup.log'),
        run('keystone-manage credential_setup', 'keystone-manage', ['--config-file', keystoneConf, 'credential_setup', ...keyArgs], 'keystone/credential-setup.log'),
      ]);
    });

    await mariadb;
    const keystoneUp = measure('keystone', async () => {
      await run('keystone-manage db_sync', 'keystone-manage', ['--config-file', keystoneConf, 'db_sync'], 'keystone/db-sync.log');
      await keystoneKeys;
      const url = keystoneUrl(layout);
      await run('keystone-manage bootstrap', 'keystone-manage', [
        '--config-file', keystoneConf, 'bootstrap',
        '--bootstrap-username', layout.admin.username,
        '--bootstrap-password', layout.admin.password,
        '--bootstrap-project-name', layout.admin.projectName,
        '--bootstrap-role-name', 'admin',
        '--bootstrap-service-name', 'keystone',
        '--bootstrap-region-id', region,
        '--bootstrap-public-url', url,
        '--bootstrap-internal-url', url,
        '--bootstrap-admin-url', url,
      ], 'keystone/bootstrap.log');
      const server = startWith('keystone-wsgi-public', scriptInterpreter(commandPath('keystone-wsgi-public')), wsgiArgs('keystone.server.wsgi:initialize_public_application', keystone!, []), 'keystone/wsgi.log', {
        ...process.env,
        OS_KEYSTONE_CONFIG_FILES: keystoneConf,
      });
      await waitForHttp('keystone', server, `${url}`, deadline);
    });
    const neutronDatabase = measure('neutron db', () => run('neutron-db-manage', 'neutron-db-manage', ['--config-file', neutronConf, 'upgrade', 'heads'], 'neutron/db-manage.log'));
    const octaviaDatabase = measure('octavia db', () => run('octavia-db-manage', 'octavia-db-manage', ['--config-file', octaviaConf, 'upgrade', 'head'], 'octavia/db-manage.log'));

    const neutronUrl = `http://127.0.0.1:${neutron}/`;
    const octaviaUrl = `http://127.0.0.1:${octavia}/`;
    const catalog = keystoneUp.then(() =>
      measure('catalog', async () => {
        const auth = { authUrl: keystoneUrl(layout), username: layout.admin.username, password: layout.admin.password, projectName: layout.admin.projectName, domainName: layout.admin.domainName };
        await registerService(auth, { type: 'network', name: 'neutron', description: 'OpenStack Networking', region, url: neutronUrl });
        await registerService(auth, { type: 'load-balancer', name: 'octavia', description: 'OpenStack Load Balancer', region, url: octaviaUrl });
      }),
    );
    catalog.catch(() => undefined);
    const neutronUp = Promise.all([keystoneUp, rabbitmq, neutronDatabase]).then(() =>
      measure('neutron', async () => {
        const server = start('neutron-server', 'neutron-server', ['--config-file', neutronConf], 'neutron/server.log');
        await waitForHttp('neutron-server', server, neutronUrl, deadline);
      }),
    );
    neutronUp.catch(() => undefined);
    const octaviaUp = Promise.all([keystoneUp, rabbitmq, octaviaDatabase]).then(() =>
      measure('octavia', async () => {
        const workerLog = join(root, 'octavia', 'worker.log');
        const workerLogging = join(root, 'octavia', 'worker-logging.conf');
        writeFileSync(workerLogging, octaviaWorkerLoggingConfiguration());
        const worker = start('octavia-worker', 'octavia-worker', ['--config-file', octaviaConf, '--config-file', workerLogging, '--log-file', workerLog], 'octavia/worker.out');
        octaviaWorkerProcessGroup = worker.processGroup;
        const api = startWith('octavia-api', scriptInterpreter(commandPath('octavia-api')), wsgiArgs('octavia.api.app:setup_app', octavia!, ['--config-file', octaviaConf, '--log-file', join(root, 'octavia', 'api.log')]), 'octavia/api.out');
        await waitForHttp('octavia-api', api, octaviaUrl, deadline);
        // A load balancer created before the worker's queue exists would stay PENDING_CREATE (the
        // cast is dropped): ready once the consumer has declared its topic queue, i.e. logs
        // the declaration of the queue after it (oslo.messaging's debug log, enabled for the worker).
        await waitUntil('octavia-worker', worker, deadline, async () => consumerConnected(workerLog));
      }),
    );
    // The Nova stand-in (see src/nova/) validates tokens against Keystone and makes Neutron ports.
    const novaUp = Promise.all([catalog, neutronUp]).then(() =>
      measure('nova stand-in', async () => {
        if (closing !== undefined) throw new Error('not starting the Nova stand-in: the services are being stopped');
        const auth = { authUrl: keystoneUrl(layout), username: layout.admin.username, password: layout.admin.password, projectName: layout.admin.projectName, domainName: layout.admin.domainName };
        nova = await startNovaStandIn({ keystone: auth, neutronUrl });
        await registerService(auth, { type: 'compute', name: 'nova', description: 'OpenStack Compute (stand-in)', region, url: nova.url });
      }),
    );
    novaUp.catch(() => undefined);
    await Promise.all([catalog, neutronUp, octaviaUp, novaUp]);
    if (closing !== undefined) throw new Error('the services were stopped while starting');
    options.signal?.removeEventListener('abort', onAbort);
    timings['total'] = (Date.now() - started) / 1000;
    log(`total: ${timings['total'].toFixed(1)} s`);
    return {
      authUrl: keystoneUrl(layout),
      region,
      username: layout.admin.username,
      password: layout.admin.password,
      projectName: layout.admin.projectName,
      userDomainName: layout.admin.domainName,
      projectDomainName: layout.admin.domainName,
      directory: root,
      neutronUrl,
      octaviaUrl,
      novaUrl: nova!.url,
      octaviaWorkerProcessGroup: octaviaWorkerProcessGroup!,
      timings,
      close,
    };
  } catch (error) {
    options.signal?.removeEventListener('abort', onAbort);
    await close();
    throw error;
  }
}

function commandPath(name: string): string {
  const path = findCommand(name);
  if (path === undefined) throw new Error(`command ${name} not found (PATH, /usr/sbin, /usr/lib/rabbitmq/bin)`);
  return path;
}

function groupName(): string {
  try {
    const gid = process.getgid?.() ?? 0;
    const line = readFileSync('/etc/group', 'utf8').split('\n').find((entry) => entry.split(':')[2] === String(gid));
    return line?.split(':')[0] ?? userInfo().username;
  } catch {
    return userInfo().username;
  }
}

function writeOctaviaCa(layout: ServicesLayout): void {
  const now = Date.now();
  const ca = issueCertificate({ commonName: 'openstack-services octavia CA', certificateAuthority: true, notBefore: new Date(now - 3_600_000), notAfter: new Date(now + 30 * 86_400_000) });
  mkdirSync(join(layout.root, 'octavia'), { recursive: true });
  writeFileSync(layout.octaviaCa.certificateFile, ca.certificatePem);
  writeFileSync(layout.octaviaCa.privateKeyFile, ca.privateKeyPem, { mode: 0o600 });
}

function consumerConnected(logFile: string): boolean {
  let text: string;
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return false;
  }
  const consumer = text.indexOf('Starting V2 consumer');
  return consumer >= 0 && text.indexOf('Queue.declare: octavia_provisioning_v2_fanout', consumer) >= 0;
}

async function waitUntil(name: string, managed: ManagedProcess, deadline: number, ready: () => Promise<boolean> | boolean): Promise<void> {
  for (;;) {
    if (managed.exited) throw new Error(`${name} exited while starting; log ${managed.logFile}:\n${managed.logTail()}`);
    if (await ready()) return;
    if (Date.now() > deadline) throw new Error(`${name} was not ready in time; log ${managed.logFile}:\n${managed.logTail()}`);
    await delay(200);
  }
}

function waitForPort(name: string, managed: ManagedProcess, port: number, deadline: number): Promise<void> {
  return waitUntil(name, managed, deadline, () => canConnect(port));
}

async function canConnect(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function waitForHttp(name: string, managed: ManagedProcess, url: string, deadline: number): Promise<void> {
  return waitUntil(name, managed, deadline, async () => {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      // An OpenStack API's root answers its version document: any other answer is another server.
      return response.status < 500 && (await response.text()).includes('"version');
    } catch {
      return false;
    }
  });
}
