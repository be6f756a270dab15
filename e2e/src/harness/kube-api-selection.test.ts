import { describe, expect, it } from 'vitest';
import { requestedKubeApi, selectKubeApi } from './kube-api-selection.js';

const available = async () => undefined;
const missing = async () => 'Go is not installed';

describe('requestedKubeApi', () => {
  it.each([
    { environment: {}, expected: { kind: 'real', explicit: false } },
    { environment: { CI: 'true' }, expected: { kind: 'real', explicit: true } },
    { environment: { CCM_KUBE_API: 'emulator', CI: 'true' }, expected: { kind: 'emulator', explicit: true } },
    { environment: { CCM_KUBE_API: 'real' }, expected: { kind: 'real', explicit: true } },
  ])('$environment', ({ environment, expected }) => {
    expect(requestedKubeApi(environment)).toEqual(expected);
  });

  it('rejects anything else, naming the value', () => {
    expect(requestedKubeApi({ CCM_KUBE_API: 'kind' })).toEqual({ kind: 'invalid', message: 'CCM_KUBE_API must be "real" or "emulator", not "kind"' });
  });
});

describe('selectKubeApi', () => {
  it('uses the real server when it can be built', async () => {
    expect(await selectKubeApi({}, available)).toEqual({ kind: 'real' });
  });

  it('falls back to the emulator on a laptop without Go, with a notice', async () => {
    const selection = await selectKubeApi({}, missing);
    expect(selection.kind).toBe('emulator');
    expect(selection).toHaveProperty('notice', expect.stringContaining('Go is not installed'));
  });

  it('is unavailable under CI without Go (the suites then fail, naming what is missing)', async () => {
    expect(await selectKubeApi({ CI: 'true' }, missing)).toEqual({
      kind: 'unavailable',
      reason: 'the real kube-apiserver is needed (CCM_KUBE_API=real, or CI=true) but Go is not installed',
    });
  });

  it('never builds anything when the emulator is asked for', async () => {
    expect(await selectKubeApi({ CCM_KUBE_API: 'emulator', CI: 'true' }, missing)).toEqual({ kind: 'emulator' });
  });
});
