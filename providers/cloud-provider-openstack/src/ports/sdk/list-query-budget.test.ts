import { describe, expect, it } from 'vitest';
import { deviceIdsFitOneQuery, formEncodedLength, groupsWithinBudget, MAX_LIST_QUERY_LENGTH, serverNameGroups, serverNamesFilter } from './list-query-budget.js';

/** The query string the SDK adapter sends for these names (the client writes it with URLSearchParams). */
const nameQuery = (names: readonly string[]): string => new URLSearchParams([['name', serverNamesFilter(names)]]).toString();
const deviceQuery = (ids: readonly string[]): string => new URLSearchParams(ids.map((id): [string, string] => ['device_id', id])).toString();
const uuid = (index: number): string => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;

describe('formEncodedLength', () => {
  it.each([
    ['node-1', 6],
    ['^(a|b)$', 17],
    ['a b', 3],
    ['\\.', 4],
    ['é', 6],
  ])('%j is %i characters once encoded', (text, length) => {
    expect(formEncodedLength(text)).toBe(length);
    expect(new URLSearchParams([['x', text]]).toString()).toHaveLength(2 + length);
  });
});

describe('groupsWithinBudget', () => {
  it.each([
    { items: [3, 3, 3], budget: 6, fixed: 0, groups: [[3, 3], [3]] },
    { items: [3, 3, 3], budget: 9, fixed: 0, groups: [[3, 3, 3]] },
    { items: [3, 3, 3], budget: 9, fixed: 1, groups: [[3, 3], [3]] },
    { items: [10, 1, 1], budget: 5, fixed: 0, groups: [[10], [1, 1]] },
    { items: [], budget: 5, fixed: 0, groups: [] },
  ])('$items within $budget (fixed $fixed): $groups', ({ items, budget, fixed, groups }) => {
    expect(groupsWithinBudget(items, (item) => item, budget, fixed)).toEqual(groups);
  });
});

describe('serverNameGroups', () => {
  it('keeps every name, in order, one group when the query fits', () => {
    const names = Array.from({ length: 200 }, (_, index) => `ccm-bench-node-${index}`);
    expect(serverNameGroups(names)).toEqual([names]);
    expect(nameQuery(names).length).toBeLessThanOrEqual(MAX_LIST_QUERY_LENGTH);
  });

  it('cuts long lists so that each query is within the budget and no group could take the next name', () => {
    const names = Array.from({ length: 1_000 }, (_, index) => `k8s-production-worker-pool-a-${index}.example`);
    const groups = serverNameGroups(names);
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.flat()).toEqual(names);
    for (const [index, group] of groups.entries()) {
      expect(nameQuery(group).length).toBeLessThanOrEqual(MAX_LIST_QUERY_LENGTH);
      const next = groups[index + 1]?.[0];
      if (next !== undefined) expect(nameQuery([...group, next]).length).toBeGreaterThan(MAX_LIST_QUERY_LENGTH);
    }
  });

  it('counts escaped characters as sent', () => {
    const names = ['a.b', 'c+d', 'e f'];
    expect(serverNameGroups(names, nameQuery(names).length)).toEqual([names]);
    expect(serverNameGroups(names, nameQuery(names).length - 1)).toEqual([['a.b', 'c+d'], ['e f']]);
  });
});

describe('deviceIdsFitOneQuery', () => {
  it('says yes exactly when device_id=a&device_id=b... is within the budget', () => {
    const ids = Array.from({ length: 200 }, (_, index) => uuid(index));
    for (const count of [1, 50, 152, 153, 200]) {
      expect(deviceIdsFitOneQuery(ids.slice(0, count))).toBe(deviceQuery(ids.slice(0, count)).length <= MAX_LIST_QUERY_LENGTH);
    }
    expect(deviceIdsFitOneQuery(ids.slice(0, 152))).toBe(true);
    expect(deviceIdsFitOneQuery(ids.slice(0, 153))).toBe(false);
    expect(deviceIdsFitOneQuery(ids.slice(0, 2), deviceQuery(ids.slice(0, 2)).length)).toBe(true);
    expect(deviceIdsFitOneQuery(ids.slice(0, 2), deviceQuery(ids.slice(0, 2)).length - 1)).toBe(false);
  });
});
