/**
 * What Node can serve of upstream's `/debug/pprof/` (`--profiling`, default true), through the
 * V8 inspector of the process itself (`node:inspector`, no `--inspect` port is opened):
 * - `/debug/pprof/profile?seconds=N` (default 30, also for a missing or bad value, as Go): a CPU
 *   profile of the next N seconds, as a `.cpuprofile` (Chrome DevTools, speedscope). One at a
 *   time, as Go.
 * - `/debug/pprof/heap`: the sampled heap profile of the live allocations (`.heapprofile`), the
 *   counterpart of Go's heap profile: V8's sampling heap profiler runs from start-up at Go's rate
 *   (one sample per 512 KiB allocated) and records allocation stacks and sizes only.
 *   A full heap snapshot is not served: it holds the memory's contents, cloud credentials and
 *   tokens included, which upstream's heap profile never exposes.
 * - `/debug/pprof/` lists them. Go's goroutine, block, mutex, trace and symbol profiles have no
 *   Node counterpart and answer 404 with the reason.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Session as InspectorSession } from 'node:inspector/promises';
import { sendResponse as send } from './send-response.js';

/** Go's `runtime.MemProfileRate`. */
const HEAP_SAMPLING_INTERVAL_BYTES = 512 * 1024;
const DEFAULT_PROFILE_SECONDS = 30;

export interface Profiler {
  /** Handles `/debug/pprof*`; false when the path is not one of them. */
  handle(path: string, url: URL, request: IncomingMessage, response: ServerResponse): Promise<boolean>;
  close(): Promise<void>;
}

const NOT_IN_NODE: Readonly<Record<string, string>> = {
  goroutine: 'Node.js has no goroutines',
  threadcreate: 'Node.js has no thread creation profile',
  block: 'Node.js has no block profiler',
  mutex: 'Node.js has no mutex profiler',
  allocs: 'use /debug/pprof/heap (sampled allocations)',
  trace: 'Node.js has no execution tracer here; use /debug/pprof/profile',
  symbol: 'profiles carry their function names',
  cmdline: 'not served',
};

/** `--profiling` cannot be served by this Node.js; the message is the start-up error line. */
export class ProfilingUnavailableError extends Error {
  constructor(reason: string) {
    super(`--profiling: this Node.js cannot profile itself (${reason}); start with --profiling=false`);
    this.name = 'ProfilingUnavailableError';
  }
}

export async function startProfiler(): Promise<Profiler> {
  let session: InspectorSession;
  try {
    // Imported here: a Node.js built without the inspector throws on import.
    const { Session } = await import('node:inspector/promises');
    session = new Session();
    session.connect();
  } catch (error) {
    throw new ProfilingUnavailableError(error instanceof Error ? error.message : String(error));
  }
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: HEAP_SAMPLING_INTERVAL_BYTES });
  await session.post('Profiler.enable');
  let cpuProfiling = false;
  let closed = false;

  return {
    async handle(path, url, request, response) {
      if (path !== '/debug/pprof' && !path.startsWith('/debug/pprof/')) return false;
      const name = path.slice('/debug/pprof/'.length);
      if (path === '/debug/pprof') {
        response.statusCode = 301;
        response.setHeader('Location', '/debug/pprof/');
        response.end();
        return true;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.setHeader('Allow', 'GET, HEAD');
        send(response, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
        return true;
      }
      if (name === '') {
        send(
          response,
          200,
          'text/plain; charset=utf-8',
          'Profiles (Node.js; open them in Chrome DevTools or speedscope):\n' +
            'heap: the sampled heap profile of live allocations (.heapprofile)\n' +
            'profile: a CPU profile of ?seconds=N seconds, default 30 (.cpuprofile)\n',
        );
        return true;
      }
      if (name === 'heap') {
        const { profile } = await session.post('HeapProfiler.getSamplingProfile');
        sendProfile(response, 'heap.heapprofile', JSON.stringify(profile));
        return true;
      }
      if (name === 'profile') {
        const seconds = profileSeconds(url.searchParams.get('seconds'));
        if (cpuProfiling) {
          send(response, 500, 'text/plain; charset=utf-8', 'Could not enable CPU profiling: cpu profiling already in use\n');
          return true;
        }
        cpuProfiling = true;
        try {
          await session.post('Profiler.start');
          await waitSeconds(seconds, request);
          const { profile } = await session.post('Profiler.stop');
          if (!closed) sendProfile(response, 'profile.cpuprofile', JSON.stringify(profile));
        } finally {
          cpuProfiling = false;
        }
        return true;
      }
      const reason = NOT_IN_NODE[name];
      send(response, 404, 'text/plain; charset=utf-8', reason === undefined ? 'Unknown profile\n' : `Unknown profile: ${reason}\n`);
      return true;
    },
    async close() {
      if (closed) return;
      closed = true;
      await session.post('HeapProfiler.stopSampling').catch(() => undefined);
      session.disconnect();
    },
  };
}

/** Go's pprof `Profile`: `seconds` as a positive integer, anything else (missing, 0, not a number) is 30. */
export function profileSeconds(value: string | null): number {
  const seconds = value === null || !/^[+-]?\d+$/.test(value) ? Number.NaN : Number(value);
  return Number.isSafeInteger(seconds) && seconds > 0 ? seconds : DEFAULT_PROFILE_SECONDS;
}

function sendProfile(response: ServerResponse, fileName: string, body: string): void {
  response.setHeader('Content-Disposition', `attachment; filename="${fileName}"`);
  send(response, 200, 'application/octet-stream', body);
}

/** Waits the profile's seconds, or less when the client goes away. */
function waitSeconds(seconds: number, request: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, seconds * 1000);
    function done(): void {
      clearTimeout(timer);
      request.socket.off('close', done);
      resolve();
    }
    request.socket.once('close', done);
  });
}
