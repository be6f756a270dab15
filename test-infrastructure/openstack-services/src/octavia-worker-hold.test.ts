/**
 * holdingOctaviaWorker on a plain process group (a shell and its child): stopped while the body
 * runs, continued when it settles, throws, or outlasts the longest hold.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { holdingOctaviaWorker } from './octavia-worker-hold.js';

/** The state letter of /proc/PID/stat: T when stopped. */
function state(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

const children: ChildProcess[] = [];

function group(): number {
  const child = spawn('sh', ['-c', 'sleep 600 & wait'], { detached: true, stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

afterEach(() => {
  for (const child of children.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

describe('holdingOctaviaWorker', () => {
  it('stops the group while the body runs and continues it after', async () => {
    const pid = group();
    await until(() => state(pid) === 'S');
    const inside = await holdingOctaviaWorker(pid, async () => {
      await until(() => state(pid) === 'T');
      return 'held';
    });
    expect(inside).toBe('held');
    await until(() => state(pid) !== 'T');
  });

  it('continues the group when the body throws', async () => {
    const pid = group();
    await until(() => state(pid) === 'S');
    await expect(holdingOctaviaWorker(pid, () => Promise.reject(new Error('body failed')))).rejects.toThrow('body failed');
    await until(() => state(pid) !== 'T');
  });

  it('continues the group after the longest hold even while the body still runs', async () => {
    const pid = group();
    await until(() => state(pid) === 'S');
    await holdingOctaviaWorker(pid, () => until(() => state(pid) === 'T').then(() => until(() => state(pid) !== 'T')), 200);
  });

  it('refuses a group it already holds and a value that is no process group', async () => {
    const pid = group();
    await holdingOctaviaWorker(pid, async () => {
      await expect(holdingOctaviaWorker(pid, () => Promise.resolve())).rejects.toThrow(/already held/);
    });
    await expect(holdingOctaviaWorker(1, () => Promise.resolve())).rejects.toThrow(/not a process group/);
    await expect(holdingOctaviaWorker(0, () => Promise.resolve())).rejects.toThrow(/not a process group/);
  });
});
