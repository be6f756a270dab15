/**
 * Free TCP ports on 127.0.0.1 for the services, all held open together while chosen so they are
 * distinct. They are picked below the kernel's ephemeral range (`ip_local_port_range`): a port the
 * kernel hands out for `listen(0)` or an outgoing connection could be taken by another test's
 * server or client between our choice and the service's bind (a CI run saw octavia-api fail with
 * "Address already in use" while another server answered on its port).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

/** Where the random choice starts: above the well-known and most registered service ports. */
const LOWEST_PORT = 20_000;
const DEFAULT_EPHEMERAL_START = 32_768;
const ATTEMPTS_PER_PORT = 50;

/** The first port of the kernel's ephemeral range (Linux), else the IANA default 32768. */
export function ephemeralRangeStart(rangeFile = '/proc/sys/net/ipv4/ip_local_port_range'): number {
  try {
    const first = Number(readFileSync(rangeFile, 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > LOWEST_PORT + 1_000 ? first : DEFAULT_EPHEMERAL_START;
  } catch {
    return DEFAULT_EPHEMERAL_START;
  }
}

function listen(server: Server, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(false);
      else reject(error);
    };
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve(true);
    });
  });
}

export async function freePorts(count: number, random: () => number = Math.random): Promise<number[]> {
  const end = ephemeralRangeStart();
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    while (ports.length < count) {
      let chosen: number | undefined;
      for (let attempt = 0; attempt < ATTEMPTS_PER_PORT && chosen === undefined; attempt++) {
        const port = LOWEST_PORT + Math.floor(random() * (end - LOWEST_PORT));
        if (ports.includes(port)) continue;
        const server = createServer();
        if (await listen(server, port)) {
          servers.push(server);
          chosen = port;
        }
      }
      if (chosen === undefined) throw new Error(`no free TCP port on 127.0.0.1 between ${LOWEST_PORT} and ${end - 1} after ${ATTEMPTS_PER_PORT} attempts`);
      ports.push(chosen);
    }
    return ports;
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}
