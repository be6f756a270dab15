import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import {
  allNodePredicates,
  filterWithPredicates,
  loggableNodeNames,
  nodesSufficientlyEqual,
  respectsPredicates,
  shouldSyncUpdatedNode,
  stableNodeSetPredicates,
} from './node-predicates.js';
import { parseGoBool } from '../../util/parse-go-bool.js';
import { makeNode, PROVIDER_ID, tweakCondition, tweakDeleted, tweakLabel, tweakName, tweakProviderId, tweakReady, tweakTaint, tweakUnsetCondition } from './test-support/builders.js';

const EXCLUDE = 'node.kubernetes.io/exclude-from-external-load-balancers';
const CA_TAINT = 'ToBeDeletedByClusterAutoscaler';
const readyTrue = { conditions: [{ type: 'Ready', status: 'True' }] };

describe('Test_respectsPredicates (allNodePredicates)', () => {
  it.each<[string, V1Node, boolean]>([
    ['empty node', {}, false],
    ['ready with providerID', { spec: { providerID: PROVIDER_ID }, status: readyTrue }, true],
    ['ready', { status: readyTrue }, true],
    ['not ready', { status: { conditions: [{ type: 'Ready', status: 'False' }] } }, false],
    ['ready with empty labels', { spec: { providerID: PROVIDER_ID }, status: readyTrue, metadata: { labels: {} } }, true],
    ['exclude label empty value', { status: readyTrue, metadata: { labels: { [EXCLUDE]: '' } } }, false],
    ['exclude label false', { status: readyTrue, metadata: { labels: { [EXCLUDE]: 'false' } } }, true],
    ['exclude label true', { status: readyTrue, metadata: { labels: { [EXCLUDE]: 'true' } } }, false],
    ['exclude label unparsable', { status: readyTrue, metadata: { labels: { [EXCLUDE]: 'foo' } } }, false],
    ['cluster autoscaler taint', { status: readyTrue, spec: { taints: [{ key: CA_TAINT, value: String(Date.now()), effect: 'NoSchedule' }] } }, false],
  ])('%s -> %s', (_name, node, expected) => {
    expect(respectsPredicates(node, allNodePredicates)).toBe(expected);
  });
});

describe('stable node set predicates', () => {
  it.each<[string, V1Node, boolean]>([
    ['ready node', makeNode(), true],
    ['NotReady node stays in the set', makeNode(tweakReady(false)), true],
    ['node without Ready condition stays', makeNode(tweakUnsetCondition('Ready')), true],
    ['node without providerID stays', makeNode(tweakProviderId('')), true],
    ['excluded (empty value)', makeNode(tweakLabel(EXCLUDE, '')), false],
    ['excluded (true, case variants)', makeNode(tweakLabel(EXCLUDE, 'True')), false],
    ['exclude label false keeps it', makeNode(tweakLabel(EXCLUDE, 'false')), true],
    ['exclude label 0 keeps it', makeNode(tweakLabel(EXCLUDE, '0')), true],
    ['CA taint (key only)', makeNode(tweakTaint(CA_TAINT)), false],
    ['other taint', makeNode(tweakTaint('Other')), true],
    ['being deleted', makeNode(tweakDeleted()), false],
  ])('%s -> %s', (_name, node, expected) => {
    expect(respectsPredicates(node, stableNodeSetPredicates)).toBe(expected);
  });

  it('parses booleans like Go strconv.ParseBool', () => {
    expect(['1', 't', 'T', 'TRUE', 'true', 'True'].map(parseGoBool)).toEqual([true, true, true, true, true, true]);
    expect(['0', 'f', 'F', 'FALSE', 'false', 'False'].map(parseGoBool)).toEqual([false, false, false, false, false, false]);
    expect(['', 'yes', 'tRUE', ' true'].map(parseGoBool)).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('TestListWithPredicate', () => {
  const nodes = Array.from({ length: 5 }, (_unused, index) => ({ metadata: { name: `node-${index}` }, status: { phase: index % 2 === 0 ? 'Pending' : 'Running' } }));
  it.each([
    ['Running', ['node-1', 'node-3']],
    ['Pending', ['node-0', 'node-2', 'node-4']],
    ['Terminated', []],
  ])('filter %s nodes', (phase, expected) => {
    expect(filterWithPredicates(nodes, [(node) => node.status?.phase === phase]).map((node) => node.metadata?.name)).toEqual(expected);
  });
});

describe('Test_shouldSyncUpdatedNode_individualPredicates', () => {
  it.each<[string, V1Node, V1Node, boolean]>([
    ['nothing changed', makeNode(), makeNode(), false],
    ['excluded F->T', makeNode(), makeNode(tweakLabel(EXCLUDE, '')), true],
    ['excluded changed T->F', makeNode(tweakLabel(EXCLUDE, '')), makeNode(), true],
    ['excluded changed T->T', makeNode(tweakLabel(EXCLUDE, '')), makeNode(tweakLabel(EXCLUDE, '')), false],
    ['excluded value true -> false', makeNode(tweakLabel(EXCLUDE, 'true')), makeNode(tweakLabel(EXCLUDE, 'false')), true],
    ['excluded value "" -> true (still excluded)', makeNode(tweakLabel(EXCLUDE, '')), makeNode(tweakLabel(EXCLUDE, 'true')), false],
    ['other taint F->T', makeNode(), makeNode(tweakTaint('other')), false],
    ['other taint T->F', makeNode(tweakTaint('other')), makeNode(), false],
    ['other label changed F->T', makeNode(), makeNode(tweakLabel('other', '')), false],
    ['other label changed T->F', makeNode(tweakLabel('other', '')), makeNode(), false],
    ['readiness changed F->F', makeNode(tweakReady(false)), makeNode(tweakReady(false)), false],
    ['readiness changed F->unset', makeNode(tweakReady(false)), makeNode(tweakUnsetCondition('Ready')), false],
    ['readiness changed unset->F', makeNode(tweakUnsetCondition('Ready')), makeNode(tweakReady(false)), false],
    ['readiness changed unset->unset', makeNode(tweakUnsetCondition('Ready')), makeNode(tweakUnsetCondition('Ready')), false],
    ['readiness changed T->F', makeNode(), makeNode(tweakReady(false)), false],
    ['ready F, other condition changed F->T', makeNode(tweakReady(false), tweakCondition('DiskPressure', 'False')), makeNode(tweakReady(false), tweakCondition('DiskPressure', 'True')), false],
    ['ready F, other condition changed T->F', makeNode(tweakReady(false), tweakCondition('DiskPressure', 'True')), makeNode(tweakReady(false), tweakCondition('DiskPressure', 'False')), false],
    ['ready T, other condition changed F->T', makeNode(tweakCondition('Other', 'False')), makeNode(tweakCondition('Other', 'True')), false],
    ['ready T, other condition changed T->F', makeNode(tweakCondition('Other', 'True')), makeNode(tweakCondition('Other', 'False')), false],
    ['deletionTimestamp F -> T', makeNode(), makeNode(tweakDeleted()), false],
    ['providerID set F -> T', makeNode(tweakProviderId('')), makeNode(), true],
    ['providerID set T-> F', makeNode(), makeNode(tweakProviderId('')), true],
    ['providerID change', makeNode(), makeNode(tweakProviderId(`${PROVIDER_ID}-2`)), true],
  ])('%s', (_name, oldNode, newNode, shouldSync) => {
    expect(shouldSyncUpdatedNode(oldNode, newNode)).toBe(shouldSync);
  });
});

describe('Test_shouldSyncUpdatedNode_compoundedPredicates', () => {
  const ex = tweakLabel(EXCLUDE, '');
  const ca = tweakTaint(CA_TAINT);
  const noId = tweakProviderId('');
  const otherId = tweakProviderId(`${PROVIDER_ID}-2`);
  const notReady = tweakReady(false);
  it.each<[string, V1Node, V1Node, boolean]>([
    ['tainted T, excluded F->T', makeNode(ca), makeNode(ca, ex), true],
    ['tainted T, excluded T->F', makeNode(ca, ex), makeNode(ca), true],
    ['tainted T, providerID set F->T', makeNode(ca, noId), makeNode(ca), true],
    ['tainted T, providerID set T->F', makeNode(ca), makeNode(ca, noId), true],
    ['tainted T, providerID change', makeNode(ca), makeNode(ca, otherId), true],
    ['tainted T, ready F->T', makeNode(ca, notReady), makeNode(ca), false],
    ['tainted T, ready T->F', makeNode(ca), makeNode(ca, notReady), false],
    ['excluded T, tainted F->T', makeNode(ex), makeNode(ex, ca), false],
    ['excluded T, tainted T->F', makeNode(ex, ca), makeNode(ex), false],
    ['excluded T, ready F->T', makeNode(ex, notReady), makeNode(ex), false],
    ['excluded T, ready T->F', makeNode(ex), makeNode(ex, notReady), false],
    ['excluded T, providerID set F->T', makeNode(ex, noId), makeNode(ex), true],
    ['excluded T, providerID set T->F', makeNode(ex), makeNode(ex, noId), true],
    ['excluded T, providerID change', makeNode(ex), makeNode(ex, otherId), true],
    ['ready F, tainted F->T', makeNode(notReady), makeNode(notReady, ca), false],
    ['ready F, tainted T->F', makeNode(notReady, ca), makeNode(notReady), false],
    ['ready F, excluded F->T', makeNode(notReady), makeNode(notReady, ex), true],
    ['ready F, excluded T->F', makeNode(notReady, ex), makeNode(notReady), true],
    ['ready F, providerID set F->T', makeNode(notReady, noId), makeNode(notReady), true],
    ['ready F, providerID set T->F', makeNode(notReady), makeNode(notReady, noId), true],
    ['ready F, providerID change', makeNode(notReady), makeNode(notReady, otherId), true],
    ['providerID unset, excluded F->T', makeNode(noId), makeNode(noId, ex), true],
    ['providerID unset, excluded T->F', makeNode(noId, ex), makeNode(noId), true],
    ['providerID unset, ready T->F', makeNode(noId), makeNode(noId, tweakReady(true)), false],
    ['providerID unset, ready F->T', makeNode(noId), makeNode(noId, notReady), false],
    ['providerID unset, tainted T->F', makeNode(noId, ca), makeNode(noId), false],
    ['providerID unset, tainted F->T', makeNode(noId), makeNode(noId, ca), false],
  ])('%s', (_name, oldNode, newNode, shouldSync) => {
    expect(shouldSyncUpdatedNode(oldNode, newNode)).toBe(shouldSync);
  });
});

describe('nodesSufficientlyEqual (TestNodesNotEqual at the predicate level)', () => {
  const node1 = makeNode(tweakName('node1'), tweakProviderId(''));
  const node2 = makeNode(tweakName('node2'), tweakProviderId(''));
  const node3 = makeNode(tweakName('node3'), tweakProviderId(''));
  const node1WithId = makeNode(tweakName('node1'), tweakProviderId('cumulus/1'));
  const node2WithId = makeNode(tweakName('node2'), tweakProviderId('cumulus/2'));
  it.each<[string, V1Node[], V1Node[], boolean]>([
    ['Nodes with updated providerID', [node1, node2], [node1WithId, node2WithId], false],
    ['Nodes unchanged', [node1WithId, node2], [node1WithId, node2], true],
    ['Change node with empty providerID', [node1WithId, node2], [node1WithId, node3], false],
    ['Same set in another order', [node1, node2], [node2, node1], true],
    ['Different size', [node1], [node1, node2], false],
    ['Readiness is ignored', [node1], [makeNode(tweakName('node1'), tweakProviderId(''), tweakReady(false))], true],
  ])('%s', (_name, oldNodes, newNodes, equal) => {
    expect(nodesSufficientlyEqual(oldNodes, newNodes)).toBe(equal);
  });
});

describe('loggableNodeNames', () => {
  it('sorts names and limits them to 20 plus "<N more>"', () => {
    expect(loggableNodeNames([makeNode(tweakName('b')), makeNode(tweakName('a'))])).toEqual(['a', 'b']);
    const many = Array.from({ length: 23 }, (_unused, index) => makeNode(tweakName(`node-${String(index).padStart(2, '0')}`)));
    const names = loggableNodeNames(many);
    expect(names).toHaveLength(21);
    expect(names[19]).toBe('node-19');
    expect(names[20]).toBe('<3 more>');
  });
});
