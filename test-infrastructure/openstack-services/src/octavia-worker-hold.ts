/**
 * Holding the Octavia worker: a test that must see a load balancer PENDING_* (Octavia refuses every
 * change then, 409 "immutable") cannot count on the worker being slower than its next request; with
 * the noop drivers it often is not. Stopping the worker's process group (SIGSTOP) holds every
 * load balancer in the state the API left it in; the API keeps answering, and the worker takes up
 * the queued requests when it is continued (SIGCONT).
 *
 * The worker is shared by every test file using the same services: a hold only delays the others.
 * It never outlasts `maxHoldMs`, nor the process that took it (an exit hook continues the worker).
 */
const held = new Set<number>();
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
    for (const group of held) signalGroup(group, 'SIGCONT');
  });
}

/** The longest a hold lasts by default: far below the heartbeat timeout of the worker's AMQP connection (60 s). */
export const DEFAULT_MAX_HOLD_MS = 30_000;

/**
 * Runs `body` with the octavia-worker process group `group` stopped, and continues it afterwards,
 * whether `body` settles or `maxHoldMs` passes first.
 */
export async function holdingOctaviaWorker<T>(group: number, body: () => Promise<T>, maxHoldMs = DEFAULT_MAX_HOLD_MS): Promise<T> {
  if (!Number.isInteger(group) || group <= 1) throw new Error(`holdingOctaviaWorker: ${group} is not a process group of an octavia-worker`);
  if (held.has(group)) throw new Error(`holdingOctaviaWorker: the octavia-worker group ${group} is already held by this process`);
  installExitHook();
  held.add(group);
  const release = (): void => {
    if (!held.delete(group)) return;
    signalGroup(group, 'SIGCONT');
  };
  const timer = setTimeout(release, maxHoldMs);
  timer.unref();
  signalGroup(group, 'SIGSTOP');
  try {
    return await body();
  } finally {
    clearTimeout(timer);
    release();
  }
}
