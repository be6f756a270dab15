/**
 * Holding the Octavia worker: a test that must see a load balancer PENDING_* (Octavia refuses every
 * change then, 409 "immutable") cannot count on the worker being slower than its next request; with
 * the noop drivers it often is not. Stopping the worker's process group (SIGSTOP) holds every
 * load balancer in the state the API left it in; the API keeps answering, and the worker takes up
 * the queued requests when it is continued (SIGCONT).
 *
 * The worker is shared by every test file using the same services, in other processes too: one
 * hold at a time, across processes, through a lock directory next to nothing but the group's
 * number (otherwise one file's SIGCONT ends another file's hold: a CI run saw it). A hold only
 * delays the other files. It never outlasts `maxHoldMs`, nor the process that took it (an exit
 * hook continues the worker and frees the lock); a lock left by a process that is gone is taken over.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const held = new Map<number, string>();
let exitHookInstalled = false;

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [group, lock] of held) {
      signalGroup(group, 'SIGCONT');
      rmSync(lock, { recursive: true, force: true });
    }
  });
}

/** The longest a hold lasts by default: far below the heartbeat timeout of the worker's AMQP connection (60 s). */
export const DEFAULT_MAX_HOLD_MS = 30_000;

/** How long a hold waits for another process's hold of the same worker to end. */
const LOCK_WAIT_MS = 180_000;

/** The lock directory of a worker's holds (one per process group, shared by every process of the machine). */
export function octaviaWorkerHoldLock(group: number): string {
  return join(tmpdir(), `octavia-worker-hold-${group}.lock`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** The PID that holds `lock`, or undefined while its owner file is still being written. */
function lockOwner(lock: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(lock, 'owner'), 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** A lock without an owner file this long was left by a process that died right after making it. */
const OWNERLESS_STALE_MS = 10_000;

function olderThan(path: string, ms: number): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > ms;
  } catch {
    return false;
  }
}

async function acquireLock(lock: string, group: number): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'owner'), String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = lockOwner(lock);
    if (owner === undefined ? olderThan(lock, OWNERLESS_STALE_MS) : !isAlive(owner)) {
      // Its holder is gone without releasing (killed): continue the worker and take the lock over.
      // Renamed first, so that of two processes finding it stale only one removes it.
      const stale = `${lock}.stale-${process.pid}-${Date.now()}`;
      try {
        renameSync(lock, stale);
        rmSync(stale, { recursive: true, force: true });
        signalGroup(group, 'SIGCONT');
      } catch {
        // another process took it over first
      }
      continue;
    }
    if (Date.now() > deadline) throw new Error(`holdingOctaviaWorker: the octavia-worker group ${group} stayed held by process ${owner ?? '(unknown)'} for ${LOCK_WAIT_MS / 1000} s (${lock})`);
    await sleep(50);
  }
}

/**
 * Runs `body` with the octavia-worker process group `group` stopped, and continues it afterwards,
 * whether `body` settles or `maxHoldMs` passes first. Waits first while another process holds it.
 */
export async function holdingOctaviaWorker<T>(group: number, body: () => Promise<T>, maxHoldMs = DEFAULT_MAX_HOLD_MS): Promise<T> {
  if (!Number.isInteger(group) || group <= 1) throw new Error(`holdingOctaviaWorker: ${group} is not a process group of an octavia-worker`);
  if (held.has(group)) throw new Error(`holdingOctaviaWorker: the octavia-worker group ${group} is already held by this process`);
  installExitHook();
  const lock = octaviaWorkerHoldLock(group);
  await acquireLock(lock, group);
  held.set(group, lock);
  const release = (): void => {
    if (!held.delete(group)) return;
    signalGroup(group, 'SIGCONT');
    rmSync(lock, { recursive: true, force: true });
  };
  const timer = setTimeout(release, maxHoldMs);
  timer.unref();
  try {
    signalGroup(group, 'SIGSTOP');
    return await body();
  } finally {
    clearTimeout(timer);
    release();
  }
}
