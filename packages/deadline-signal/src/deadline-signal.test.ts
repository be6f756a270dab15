import { describe, expect, it } from 'vitest';
import { deadlineSignal } from './deadline-signal.js';

describe('deadlineSignal', () => {
  it('aborts with a TimeoutError once the time is up, and says so', async () => {
    const deadline = deadlineSignal(undefined, 10);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as DOMException).name).toBe('TimeoutError');
    expect(deadline.timedOut()).toBe(true);
  });

  it("aborts with the caller's reason when the caller aborts, and not as a timeout", () => {
    const parent = new AbortController();
    const deadline = deadlineSignal(parent.signal, 60_000);
    const reason = new Error('shutting down');
    parent.abort(reason);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe(reason);
    expect(deadline.timedOut()).toBe(false);
    deadline.dispose();
  });

  it('starts aborted under an already aborted caller', () => {
    const parent = new AbortController();
    parent.abort(new Error('gone'));
    expect(deadlineSignal(parent.signal, 60_000).signal.aborted).toBe(true);
  });

  it('after dispose, neither the timer nor the caller aborts it', async () => {
    const parent = new AbortController();
    const deadline = deadlineSignal(parent.signal, 10);
    deadline.dispose();
    await new Promise((resolve) => setTimeout(resolve, 30));
    parent.abort(new Error('later'));
    expect(deadline.signal.aborted).toBe(false);
  });

  it("leaves no listener behind on a long-lived caller's signal", async () => {
    const { getEventListeners } = await import('node:events');
    const parent = new AbortController();
    for (let index = 0; index < 1000; index++) deadlineSignal(parent.signal, 60_000).dispose();
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
  });
});
