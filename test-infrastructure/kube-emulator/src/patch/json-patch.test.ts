import { describe, expect, it } from 'vitest';
import { applyJsonPatch } from './json-patch.js';
import { PatchError } from './patch-error.js';

const document = { metadata: { name: 'n1', labels: { a: '1', 'x/y': '2' } }, spec: { taints: [{ key: 't1' }, { key: 't2' }] } };

describe('applyJsonPatch', () => {
  it('adds, replaces and removes members without touching the input', () => {
    const result = applyJsonPatch(document, [
      { op: 'add', path: '/metadata/labels/b', value: '3' },
      { op: 'replace', path: '/metadata/labels/a', value: 'one' },
      { op: 'remove', path: '/metadata/labels/x~1y' },
    ]);
    expect(result).toEqual({ ...document, metadata: { name: 'n1', labels: { a: 'one', b: '3' } } });
    expect(document.metadata.labels).toEqual({ a: '1', 'x/y': '2' });
  });

  it('inserts into arrays by index and appends with -', () => {
    const result = applyJsonPatch(document, [
      { op: 'add', path: '/spec/taints/0', value: { key: 't0' } },
      { op: 'add', path: '/spec/taints/-', value: { key: 't3' } },
      { op: 'remove', path: '/spec/taints/1' },
    ]) as typeof document;
    expect(result.spec.taints.map((taint) => taint.key)).toEqual(['t0', 't2', 't3']);
  });

  it('moves and copies', () => {
    const result = applyJsonPatch({ a: { b: 1 }, c: {} }, [
      { op: 'copy', from: '/a/b', path: '/c/b' },
      { op: 'move', from: '/a', path: '/d' },
    ]);
    expect(result).toEqual({ c: { b: 1 }, d: { b: 1 } });
  });

  it('passes a matching test and fails a mismatching one with 422-class errors', () => {
    expect(applyJsonPatch(document, [{ op: 'test', path: '/metadata/name', value: 'n1' }])).toEqual(document);
    const failure = (() => {
      try {
        applyJsonPatch(document, [{ op: 'test', path: '/metadata/name', value: 'n2' }]);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(failure).toBeInstanceOf(PatchError);
    expect((failure as PatchError).kind).toBe('unprocessable');
    expect((failure as PatchError).message).toContain('test failed');
  });

  it.each([
    [[{ op: 'remove', path: '/metadata/missing' }], 'unprocessable'],
    [[{ op: 'replace', path: '/metadata/missing', value: 1 }], 'unprocessable'],
    [[{ op: 'add', path: '/nope/deeper', value: 1 }], 'unprocessable'],
    [[{ op: 'add', path: '/spec/taints/9', value: 1 }], 'unprocessable'],
    [[{ op: 'frobnicate', path: '/a' }], 'unprocessable'],
    [{ op: 'add', path: '/a', value: 1 }, 'bad-request'],
  ])('rejects %j as %s', (patch, kind) => {
    expect(() => applyJsonPatch(document, patch)).toThrow(expect.objectContaining({ kind }));
  });
});
