import { describe, expect, it } from 'vitest';
import { KubeApiError } from '../kube/kube-api-error.js';
import { retryOnConflict } from './conflict-retry.js';

const conflict = () => new KubeApiError('the object has been modified', 409, 'Conflict');

describe('retryOnConflict', () => {
  it('retries conflicts with jittered constant delays and returns the first success', async () => {
    const sleeps: number[] = [];
    let attempts = 0;
    const result = await retryOnConflict(
      { steps: 5, durationMs: 50, jitter: 1 },
      async (index) => {
        attempts++;
        if (index < 2) throw conflict();
        return 'ok';
      },
      { sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 },
    );
    expect(result).toBe('ok');
    expect(attempts).toBe(3);
    expect(sleeps).toEqual([75, 75]);
  });

  it('throws the last conflict after `steps` attempts', async () => {
    let attempts = 0;
    const promise = retryOnConflict(
      { steps: 3, durationMs: 1, jitter: 0 },
      async () => {
        attempts++;
        throw conflict();
      },
      { sleep: async () => {} },
    );
    await expect(promise).rejects.toMatchObject({ statusCode: 409 });
    expect(attempts).toBe(3);
  });

  it.each([
    ['not found', new KubeApiError('nope', 404, 'NotFound')],
    ['already exists (409 but not a conflict)', new KubeApiError('exists', 409, 'AlreadyExists')],
    ['a plain error', new Error('boom')],
  ])('does not retry %s', async (_name, error) => {
    let attempts = 0;
    await expect(
      retryOnConflict({ steps: 5, durationMs: 1, jitter: 0 }, async () => {
        attempts++;
        throw error;
      }),
    ).rejects.toBe(error);
    expect(attempts).toBe(1);
  });
});
