/**
 * holdingOctaviaWorker on a plain process group (a shell and its child): stopped while the body
 * runs, continued when it settles, throws, or outlasts the longest hold; one hold at a time across
 * processes (the lock directory), and a lock whose owner is gone is taken over.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { holdingOctaviaWorker, octaviaWorkerHoldLock } from './octavia-worker-hold.js';

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

function start(command: string): ChildProcess {
  const child = spawn('sh', ['-c', command], { detached: true, stdio: 'ignore' });
  children.push(child);
  return child;
}

/** A running process group standing in for the worker, once it sleeps. */
async function group(): Promise<number> {
  const pid = start('sleep 600 & wait').pid!;
  await until(() => state(pid) === 'S');
  return pid;
}

/** Makes `group`'s lock as another process would, owned by `owner`. */
function lockAs(group: number, owner: number): string {
  const lock = octaviaWorkerHoldLock(group);
  mkdirSync(lock);
  writeFileSync(join(lock, 'owner'), String(owner));
  return lock;
}

afterEach(() => {
  for (const child of children.splice(0)) {
    rmSync(octaviaWorkerHoldLock(child.pid!), { recursive: true, force: true });
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

describe('holdingOctaviaWorker', () => {
  it('stops the group while the body runs, continues it after and frees the lock', async () => {
    const pid = await group();
    const inside = await holdingOctaviaWorker(pid, async () => {
      await until(() => state(pid) === 'T');
      expect(existsSync(octaviaWorkerHoldLock(pid))).toBe(true);
      return 'held';
    });
    expect(inside).toBe('held');
    await until(() => state(pid) !== 'T');
    expect(existsSync(octaviaWorkerHoldLock(pid))).toBe(false);
  });

  it('continues the group when the body throws', async () => {
    const pid = await group();
    await expect(holdingOctaviaWorker(pid, () => Promise.reject(new Error('body failed')))).rejects.toThrow('body failed');
    await until(() => state(pid) !== 'T');
    expect(existsSync(octaviaWorkerHoldLock(pid))).toBe(false);
  });

  it('continues the group after the longest hold even while the body still runs', async () => {
    const pid = await group();
    await holdingOctaviaWorker(pid, () => until(() => state(pid) === 'T').then(() => until(() => state(pid) !== 'T')), 200);
  });

  it('waits while another process holds the worker, and holds it once that hold ends', async () => {
    const pid = await group();
    const other = start('sleep 600').pid!;
    const lock = lockAs(pid, other);
    let ran = false;
    const holding = holdingOctaviaWorker(pid, async () => {
      ran = true;
      await until(() => state(pid) === 'T');
    });
    await sleep(500);
    expect(ran).toBe(false);
    rmSync(lock, { recursive: true });
    await holding;
    expect(ran).toBe(true);
    await until(() => state(pid) !== 'T');
  });

  it('takes over a lock whose owner is gone, and continues the group that owner left stopped', async () => {
    const pid = await group();
    const gone = start('exit 0');
    await new Promise((resolve) => gone.once('exit', resolve));
    lockAs(pid, gone.pid!);
    process.kill(-pid, 'SIGSTOP');
    await holdingOctaviaWorker(pid, () => until(() => state(pid) === 'T'));
    await until(() => state(pid) !== 'T');
    expect(existsSync(octaviaWorkerHoldLock(pid))).toBe(false);
  });

  it('refuses a group it already holds and a value that is no process group', async () => {
    const pid = await group();
    await holdingOctaviaWorker(pid, async () => {
      await expect(holdingOctaviaWorker(pid, () => Promise.resolve())).rejects.toThrow(/already held/);
    });
    await expect(holdingOctaviaWorker(1, () => Promise.resolve())).rejects.toThrow(/not a process group/);
    await expect(holdingOctaviaWorker(0, () => Promise.resolve())).rejects.toThrow(/not a process group/);
  });
});
