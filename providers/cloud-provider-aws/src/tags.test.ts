import { describe, expect, it } from 'vitest';
import { ClusterTagging, findClusterIdInTags } from './tags.js';

describe('ClusterTagging', () => {
  const tagging = new ClusterTagging('c1');

  it.each([
    [{ 'kubernetes.io/cluster/c1': 'owned' }, true, true],
    [{ 'kubernetes.io/cluster/c1': 'shared' }, true, false],
    [{ 'kubernetes.io/cluster/c1': '' }, true, false],
    [{ KubernetesCluster: 'c1' }, true, true],
    [{ KubernetesCluster: 'c2' }, false, false],
    [{ 'kubernetes.io/cluster/c2': 'owned' }, false, false],
    [{}, false, false],
  ])('tags %j: cluster tag %s, owned %s', (tags, hasClusterTag, owned) => {
    expect(tagging.hasClusterTag(tags)).toBe(hasClusterTag);
    expect(tagging.isOwned(tags)).toBe(owned);
    expect(tagging.ownershipProblem(tags) === undefined).toBe(owned);
  });

  it('explains why a resource is not ours', () => {
    expect(tagging.ownershipProblem({ 'kubernetes.io/cluster/c1': 'shared' })).toBe('tag kubernetes.io/cluster/c1=shared (expected owned)');
    expect(tagging.ownershipProblem({ 'kubernetes.io/cluster/other': 'owned' })).toMatch(/another cluster/);
    expect(tagging.ownershipProblem({})).toMatch(/no kubernetes.io\/cluster\/c1 tag/);
  });

  it('matches everything without a cluster ID, tags nothing, and finds no ownership problem (upstream hasClusterTag)', () => {
    const untagged = new ClusterTagging('');
    expect(untagged.hasClusterTag({})).toBe(true);
    expect(untagged.isOwned({ 'kubernetes.io/cluster/': 'owned' })).toBe(false);
    expect(untagged.ownershipProblem({})).toBeUndefined();
    expect(untagged.ownershipProblem({ team: 'web' })).toBeUndefined();
    expect(untagged.buildTags('owned', { a: 'b' })).toEqual({ a: 'b' });
  });

  it('builds tags with the cluster tag on top of additional tags', () => {
    expect(tagging.buildTags('owned', { team: 'x', 'kubernetes.io/cluster/c1': 'shared' })).toEqual({ team: 'x', 'kubernetes.io/cluster/c1': 'owned' });
    expect(new ClusterTagging('c1', true).buildTags('shared')).toEqual({ 'kubernetes.io/cluster/c1': 'shared', KubernetesCluster: 'c1' });
  });

  it('read-repairs missing cluster tags and refuses conflicting ones', () => {
    expect(tagging.missingClusterTags('sg-1', 'owned', {})).toEqual({ 'kubernetes.io/cluster/c1': 'owned' });
    expect(tagging.missingClusterTags('sg-1', 'owned', { 'kubernetes.io/cluster/c1': 'owned' })).toEqual({});
    expect(() => tagging.missingClusterTags('sg-1', 'owned', { 'kubernetes.io/cluster/c1': 'shared' })).toThrow(/refusing to adopt/);
  });

  it('tells whether a resource has no cluster prefix tag at all', () => {
    expect(tagging.hasNoClusterPrefixTag({ Name: 'x' })).toBe(true);
    expect(tagging.hasNoClusterPrefixTag({ 'kubernetes.io/cluster/other': 'shared' })).toBe(false);
  });
});

describe('findClusterIdInTags', () => {
  it.each([
    [{ 'kubernetes.io/cluster/c1': 'owned' }, { clusterId: 'c1', legacy: false }],
    [{ KubernetesCluster: 'c1' }, { clusterId: 'c1', legacy: true }],
    [{ KubernetesCluster: 'c1', 'kubernetes.io/cluster/c1': 'owned' }, { clusterId: 'c1', legacy: false }],
    [{ Name: 'x' }, undefined],
  ])('%j', (tags, expected) => {
    expect(findClusterIdInTags(tags)).toEqual(expected);
  });

  it('rejects conflicting tags', () => {
    expect(() => findClusterIdInTags({ KubernetesCluster: 'a', 'kubernetes.io/cluster/b': 'owned' })).toThrow(/different cluster tags/);
    expect(() => findClusterIdInTags({ 'kubernetes.io/cluster/a': 'owned', 'kubernetes.io/cluster/b': 'owned' })).toThrow(/multiple cluster tags/);
  });
});
