import { createMetricsRegistry } from '@ccm/core/app';
import { createCoalescerMetrics, isCoalescerError } from '@ccm/core/cloud';
import { describe, expect, it } from 'vitest';
import { FakeEc2 } from '../../test/fakes/fake-ec2.js';
import { awsError } from '../../test/fakes/fake-errors.js';
import { AwsApiError } from '../errors.js';
import { CoalescedInstanceLookup, MAX_FILTER_VALUES_PER_CALL, MAX_INSTANCE_IDS_PER_CALL } from './instance-lookup.js';

describe('CoalescedInstanceLookup', () => {
  function setup() {
    const ec2 = new FakeEc2();
    ec2.addInstance({ instanceId: 'i-1', privateDnsName: 'ip-10-0-0-1.ec2.internal' });
    ec2.addInstance({ instanceId: 'i-2', privateDnsName: 'ip-10-0-0-2.ec2.internal', state: 'stopped' });
    ec2.addInstance({ instanceId: 'i-3', privateDnsName: 'ip-10-0-0-3.ec2.internal', state: 'terminated' });
    return { ec2, lookup: new CoalescedInstanceLookup(ec2) };
  }

  it('describes many IDs with one call', async () => {
    const { ec2, lookup } = setup();
    const [one, two, three, again] = await Promise.all([lookup.byId('i-1'), lookup.byId('i-2'), lookup.byId('i-3'), lookup.byId('i-1')]);
    expect([one?.instanceId, two?.state, three?.state, again?.instanceId]).toEqual(['i-1', 'stopped', 'terminated', 'i-1']);
    expect(ec2.log.inputs('ec2.describeInstances')).toEqual([{ instanceIds: ['i-1', 'i-2', 'i-3'] }]);
  });

  it('respects the EC2 limits on IDs per call and filter values per call', async () => {
    const ec2 = new FakeEc2();
    const ids = Array.from({ length: MAX_INSTANCE_IDS_PER_CALL + 1 }, (_, index) => `i-${index}`);
    for (const id of ids) ec2.addInstance({ instanceId: id, privateDnsName: `${id}.ec2.internal` });
    const lookup = new CoalescedInstanceLookup(ec2);
    const found = await Promise.all(ids.map((id) => lookup.byId(id)));
    expect(found.map((instance) => instance?.instanceId)).toEqual(ids);
    const names = ids.slice(0, MAX_FILTER_VALUES_PER_CALL + 1).map((id) => `${id}.ec2.internal`);
    await Promise.all(names.map((name) => lookup.byPrivateDnsName(name)));
    const calls = ec2.log.inputs('ec2.describeInstances') as Array<{ instanceIds?: string[]; filters?: Array<{ values: string[] }> }>;
    expect(calls.map((call) => call.instanceIds?.length ?? call.filters?.[0]?.values.length)).toEqual([MAX_INSTANCE_IDS_PER_CALL, 1, MAX_FILTER_VALUES_PER_CALL, 1]);
  });

  it('isolates an unknown ID: the batch fails, every ID is retried alone (upstream #1351)', async () => {
    const { ec2, lookup } = setup();
    const [known, unknown] = await Promise.all([lookup.byId('i-1'), lookup.byId('i-404')]);
    expect(known?.instanceId).toBe('i-1');
    expect(unknown).toBeUndefined();
    expect(ec2.log.inputs('ec2.describeInstances')).toEqual([{ instanceIds: ['i-1', 'i-404'] }, { instanceIds: ['i-1'] }, { instanceIds: ['i-404'] }]);
  });

  it('answers a lone unknown ID with one call', async () => {
    const { ec2, lookup } = setup();
    expect(await lookup.byId('i-404')).toBeUndefined();
    expect(ec2.log.count('ec2.describeInstances')).toBe(1);
  });

  it('reports a per-ID error that is not "not found"', async () => {
    const { ec2, lookup } = setup();
    ec2.log.failNext('ec2.describeInstances', awsError('ec2.describeInstances', 'InternalError', 'boom', 500), 1);
    ec2.log.failNext('ec2.describeInstances', awsError('ec2.describeInstances', 'UnauthorizedOperation', 'denied', 403), 1);
    await expect(lookup.byId('i-1')).rejects.toMatchObject({ kind: 'Unauthorized' });
    expect(ec2.log.count('ec2.describeInstances')).toBe(2);
  });

  it('does not split a throttled batch into single calls', async () => {
    const { ec2, lookup } = setup();
    ec2.log.failNext('ec2.describeInstances', awsError('ec2.describeInstances', 'RequestLimitExceeded', 'slow down', 503), 1);
    const outcomes = await Promise.all([lookup.byId('i-1'), lookup.byId('i-2')].map((load) => load.catch((error: unknown) => error)));
    for (const outcome of outcomes) {
      expect(isCoalescerError(outcome, 'BatchFailed')).toBe(true);
      expect(AwsApiError.hasKind(outcome, 'Throttled')).toBe(true);
    }
    expect(ec2.log.count('ec2.describeInstances')).toBe(1);
  });

  it('finds live instances by private DNS name in one call', async () => {
    const { ec2, lookup } = setup();
    const [one, two, gone] = await Promise.all([
      lookup.byPrivateDnsName('ip-10-0-0-1.ec2.internal'),
      lookup.byPrivateDnsName('ip-10-0-0-2.ec2.internal'),
      lookup.byPrivateDnsName('ip-10-0-0-3.ec2.internal'),
    ]);
    expect(one.map((instance) => instance.instanceId)).toEqual(['i-1']);
    expect(two.map((instance) => instance.instanceId)).toEqual(['i-2']);
    expect(gone).toEqual([]);
    expect(ec2.log.inputs('ec2.describeInstances')).toEqual([
      {
        filters: [
          { name: 'private-dns-name', values: ['ip-10-0-0-1.ec2.internal', 'ip-10-0-0-2.ec2.internal', 'ip-10-0-0-3.ec2.internal'] },
          { name: 'instance-state-name', values: ['pending', 'running', 'shutting-down', 'stopping', 'stopped'] },
        ],
      },
    ]);
  });

  it('falls back to one name per call when a name batch fails', async () => {
    const { ec2, lookup } = setup();
    ec2.log.failNext('ec2.describeInstances', awsError('ec2.describeInstances', 'InternalError', 'boom', 500), 1);
    const [one, two] = await Promise.all([lookup.byPrivateDnsName('ip-10-0-0-1.ec2.internal'), lookup.byPrivateDnsName('ip-10-0-0-2.ec2.internal')]);
    expect([one.length, two.length]).toEqual([1, 1]);
    expect(ec2.log.count('ec2.describeInstances')).toBe(3);
  });

  it('lets one caller abort without affecting the others', async () => {
    const { lookup } = setup();
    const controller = new AbortController();
    const aborted = lookup.byId('i-1', { signal: controller.signal }).catch((error: unknown) => `aborted: ${String(error)}`);
    const kept = lookup.byId('i-1');
    controller.abort('stop');
    expect(await aborted).toBe('aborted: stop');
    expect((await kept)?.instanceId).toBe('i-1');
  });

  it('publishes coalescer metrics', async () => {
    const { ec2 } = setup();
    const registry = createMetricsRegistry();
    const lookup = new CoalescedInstanceLookup(ec2, { observers: { byId: createCoalescerMetrics(registry, 'aws', 'DescribeInstances') } });
    await Promise.all([lookup.byId('i-1'), lookup.byId('i-2'), lookup.byId('i-2')]);
    const text = await registry.metrics();
    expect(text).toContain('cloudprovider_coalescer_batches_total{provider="aws",coalescer="DescribeInstances"} 1');
    expect(text).toContain('cloudprovider_coalescer_deduplicated_total{provider="aws",coalescer="DescribeInstances"} 1');
  });
});
