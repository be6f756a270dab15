import { describe, expect, it } from 'vitest';
import { parseComputeFilter } from './compute-filter.js';
import { GceError } from './gce-error.js';

const instances = [
  { name: 'node-1', status: 'RUNNING', zone: 'https://x/compute/v1/projects/p/zones/us-central1-a', priority: 900, canIpForward: true, labels: { owner: 'ccm' }, tags: { items: ['web', 'node'] } },
  { name: 'node-2', status: 'TERMINATED', zone: 'https://x/compute/v1/projects/p/zones/us-central1-b', priority: 1000, canIpForward: false, tags: { items: ['node'] } },
  { name: 'master', status: 'RUNNING', zone: 'https://x/compute/v1/projects/p/zones/us-central1-a', priority: 1100, canIpForward: false },
];

function select(filter: string | undefined): string[] {
  const matches = parseComputeFilter(filter);
  return instances.filter((instance) => matches(instance)).map((instance) => instance.name);
}

describe('parseComputeFilter', () => {
  it.each([
    [undefined, ['node-1', 'node-2', 'master']],
    ['', ['node-1', 'node-2', 'master']],
    ['name = "node-1"', ['node-1']],
    ['name = node-1', ['node-1']],
    ["name = 'master'", ['master']],
    ['name != "node-1"', ['node-2', 'master']],
    ['name eq "node-.*"', ['node-1', 'node-2']],
    ['name eq node-.*', ['node-1', 'node-2']],
    ["name eq 'node-1'", ['node-1']],
    ['name eq node', []],
    ['name ne .*-1', ['node-2', 'master']],
    ['(name eq node-.*) (status eq RUNNING)', ['node-1']],
    ['(name eq "node-.*") (zone eq ".*/zones/us-central1-b")', ['node-2']],
    // k8s-cloud-provider's filter package writes unquoted literals, several terms each in parentheses.
    ['(name eq node-.*) (zone eq https://x/compute/v1/projects/p/zones/us-central1-a)', ['node-1']],
    ['(name eq node-.*) (zone ne https://x/compute/v1/projects/p/zones/us-central1-a) (canIpForward eq false)', ['node-2']],
    ['(name = "node-1") OR (name = "master")', ['node-1', 'master']],
    ['(name = "node-1") OR (name = "node-2") OR (name = "nope")', ['node-1', 'node-2']],
    ['(status = RUNNING) AND (canIpForward = true)', ['node-1']],
    ['status = RUNNING canIpForward = false', ['master']],
    ['(name = "node-1") OR (name = "node-2") AND (status = "RUNNING")', ['node-1']],
    ['NOT (status = RUNNING)', ['node-2']],
    ['priority >= 1000', ['node-2', 'master']],
    ['priority < 1000', ['node-1']],
    ['labels.owner:*', ['node-1']],
    ['labels.owner = ccm', ['node-1']],
    ['labels:owner', ['node-1']],
    ['tags.items = web', ['node-1']],
    ['tags.items eq no.*', ['node-1', 'node-2']],
  ])('%s', (filter, expected) => {
    expect(select(filter)).toEqual(expected);
  });

  it.each([
    ['name eq "unterminated', 'Unterminated quoted string'],
    ['(name = a', "Missing ')'"],
    ['name', "Expected an operator after 'name'"],
    ['name =', "Expected a value after 'name ='"],
    ['(name eq a) (status = RUNNING)', 'cannot be mixed'],
    ['name eq "(["', 'is not a valid regular expression'],
    ['name = a )', 'Unexpected text'],
  ])('rejects %s', (filter, message) => {
    let caught: unknown;
    try {
      parseComputeFilter(filter);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GceError);
    expect((caught as GceError).reason).toBe('invalid');
    expect((caught as GceError).httpStatus).toBe(400);
    expect((caught as GceError).message).toContain(message);
  });
});
