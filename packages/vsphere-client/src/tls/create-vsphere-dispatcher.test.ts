import { describe, expect, it } from 'vitest';
import { createVsphereDispatcher, normalizeThumbprint } from './create-vsphere-dispatcher.js';

describe('createVsphereDispatcher', () => {
  it('normalizes thumbprints', () => {
    expect(normalizeThumbprint('ab:cd:ef 01')).toBe('ABCDEF01');
  });

  it('rejects a thumbprint that is neither SHA-1 nor SHA-256', () => {
    expect(() => createVsphereDispatcher({ thumbprint: 'AB:CD' })).toThrow('thumbprint "AB:CD" is not a SHA-1 or SHA-256 fingerprint');
  });

  it('names an unreadable or empty CA file', () => {
    expect(() => createVsphereDispatcher({ caFile: '/nonexistent/ca.pem' })).toThrow('cannot read the CA file /nonexistent/ca.pem: ENOENT');
    expect(() => createVsphereDispatcher({ caFile: '/dev/null' })).toThrow('the CA file /dev/null holds no PEM certificate');
  });
});
