import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { pollDelays, pollSimplePoller, type SimplePoller } from './lro-poll-interval.js';

function pollerDoneAfter(polls: number): SimplePoller<string> {
  let left = polls;
  return {
    poll: async () => {
      left--;
    },
    isDone: () => left <= 0,
    getResult: () => 'done',
    getOperationState: () => ({ status: left <= 0 ? 'succeeded' : 'running' }),
  };
}

describe('long-running operation polling', () => {
  it('waits 25, 100, 400, then 500 ms between polls', () => {
    const delay = pollDelays();
    expect([delay(), delay(), delay(), delay(), delay()]).toEqual([25, 100, 400, 500, 500]);
  });

  it("leaves no listener on the caller's long-lived signal once the waits are over", async () => {
    const controller = new AbortController();
    for (let index = 0; index < 5; index++) expect(await pollSimplePoller(pollerDoneAfter(2), controller.signal)).toBe('done');
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('stops waiting when the caller aborts', async () => {
    const controller = new AbortController();
    const polling = pollSimplePoller(pollerDoneAfter(100), controller.signal);
    controller.abort(new Error('shutting down'));
    await expect(polling).rejects.toThrow('shutting down');
  });
});
