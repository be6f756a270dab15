import { describe, expect, it } from 'vitest';
import { makeNode } from '../../test/helpers.js';
import { IndexedNodeDirectory } from './indexed-node-directory.js';

describe('IndexedNodeDirectory', () => {
  it('indexes provider IDs both ways and follows updates and deletions', () => {
    const directory = new IndexedNodeDirectory();
    const node = makeNode('worker-1', { providerId: 'aws:///us-west-2a/i-0aaa' });
    directory.handlers.onAdd?.(node);
    expect(directory.providerIdOfNode('worker-1')).toBe('aws:///us-west-2a/i-0aaa');
    expect(directory.nodeNameOfInstance('i-0aaa')).toBe('worker-1');

    directory.handlers.onUpdate?.(node, makeNode('worker-1', { providerId: 'aws:///us-west-2b/i-0bbb' }));
    expect(directory.nodeNameOfInstance('i-0aaa')).toBeUndefined();
    expect(directory.nodeNameOfInstance('i-0bbb')).toBe('worker-1');

    directory.handlers.onDelete?.(makeNode('worker-1'));
    expect(directory.providerIdOfNode('worker-1')).toBeUndefined();
    expect(directory.nodeNameOfInstance('i-0bbb')).toBeUndefined();
  });

  it('keeps nodes without or with a foreign provider ID out of the instance index', () => {
    const directory = new IndexedNodeDirectory();
    directory.handlers.onAdd?.(makeNode('new-node'));
    directory.handlers.onAdd?.(makeNode('gce-node', { providerId: 'gce://p/z/vm' }));
    expect(directory.providerIdOfNode('new-node')).toBeUndefined();
    expect(directory.providerIdOfNode('gce-node')).toBe('gce://p/z/vm');
    expect(directory.nodeNameOfInstance('vm')).toBeUndefined();
  });
});
