import { describe, expect, it } from 'vitest';
import { expectToHold, waitFor, WaitTimeoutError } from './wait-for.js';

describe('waitFor', () => {
  it('returns the first value the predicate produces', async () => {
    let calls = 0;
    const value = await waitFor('the third call', () => (++calls >= 3 ? `call ${calls}` : undefined), 1_000, { intervalMs: 5 });
    expect(value).toBe('call 3');
  });

  it('treats false and thrown errors as "not yet"', async () => {
    let calls = 0;
    const value = await waitFor(
      'a flaky source',
      () => {
        calls += 1;
        if (calls === 1) throw new Error('connection refused');
        return calls === 2 ? false : 42;
      },
      1_000,
      { intervalMs: 5 },
    );
    expect(value).toBe(42);
  });

  it('times out with the description, the last observation and the context', async () => {
    const failure = waitFor(
      'the node to be ready',
      (observe) => {
        observe({ ready: false });
        return undefined;
      },
      60,
      { intervalMs: 10, describeContext: () => 'ccm log tail' },
    );
    await expect(failure).rejects.toBeInstanceOf(WaitTimeoutError);
    await expect(failure).rejects.toThrow(/timed out after 60 ms waiting for the node to be ready\nlast observed: \{"ready":false\}\nccm log tail/);
  });

  it('reports the last error thrown by the predicate', async () => {
    await expect(
      waitFor(
        'the API',
        () => {
          throw new Error('ECONNREFUSED');
        },
        30,
        { intervalMs: 10 },
      ),
    ).rejects.toThrow(/last observed: ECONNREFUSED/);
  });

  it('gives up at once when abortIf reports a reason', async () => {
    const started = Date.now();
    await expect(waitFor('anything', () => undefined, 10_000, { abortIf: () => 'ccm-1 exited (code 1)' })).rejects.toThrow(
      /gave up waiting for anything: ccm-1 exited \(code 1\)/,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('expectToHold', () => {
  it('passes when the predicate holds for the whole duration', async () => {
    let calls = 0;
    await expectToHold('a steady state', () => ++calls > 0, 50, { intervalMs: 10 });
    expect(calls).toBeGreaterThanOrEqual(3);
  });

  it('fails as soon as the predicate stops holding', async () => {
    let calls = 0;
    await expect(
      expectToHold(
        'the taint to stay',
        (observe) => {
          calls += 1;
          observe(`call ${calls}`);
          return calls < 3;
        },
        5_000,
        { intervalMs: 5 },
      ),
    ).rejects.toThrow(/expected the taint to stay to hold for 5000 ms, but it stopped holding after \d+ ms\nlast observed: call 3/);
  });
});
