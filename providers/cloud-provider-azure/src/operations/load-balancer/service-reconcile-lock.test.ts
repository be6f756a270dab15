import { describe, expect, it } from 'vitest';
import { ServiceReconcileLock } from './service-reconcile-lock.js';

/** A body that records when it starts and ends, and finishes when `finish` is called. */
function step(name: string, log: string[]): { body: () => Promise<string>; finish: () => void } {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    body: async () => {
      log.push(`${name} start`);
      await done;
      log.push(`${name} end`);
      return name;
    },
    finish: () => finish(),
  };
}

const turns = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('ServiceReconcileLock', () => {
  it('runs one body at a time, in arrival order', async () => {
    const lock = new ServiceReconcileLock();
    const log: string[] = [];
    const [a, b, c] = [step('a', log), step('b', log), step('c', log)];
    const results = [lock.run(a.body), lock.run(b.body), lock.run(c.body)];
    await turns();
    expect(log).toEqual(['a start']);
    c.finish();
    b.finish();
    await turns();
    expect(log).toEqual(['a start']);
    a.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('lets the next body run after one that throws', async () => {
    const lock = new ServiceReconcileLock();
    await expect(lock.run(() => Promise.reject(new Error('ensure failed')))).rejects.toThrow('ensure failed');
    expect(await lock.run(() => Promise.resolve('next'))).toBe('next');
  });

  it('a waiter whose signal aborts leaves the line with the reason and holds nobody up', async () => {
    const lock = new ServiceReconcileLock();
    const log: string[] = [];
    const first = step('first', log);
    const running = lock.run(first.body);
    const abort = new AbortController();
    const waiting = lock.run(() => Promise.resolve('never'), abort.signal);
    const last = lock.run(() => Promise.resolve('last'));
    abort.abort(new Error('controller stopping'));
    await expect(waiting).rejects.toThrow('controller stopping');
    await expect(lock.run(() => Promise.resolve('x'), abort.signal)).rejects.toThrow('controller stopping');
    first.finish();
    expect(await running).toBe('first');
    expect(await last).toBe('last');
  });
});
