import { describe, expect, it } from 'vitest';
import { CloudApiBudget } from './cloud-api-budget.js';
import { composeCloudPort } from './compose-cloud-port.js';
import { activeLeadershipFence, LeadershipExpiredError, LeadershipFence, runFencedByLeadership } from './leadership-fence.js';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('LeadershipFence', () => {
  it('is open before the deadline and refuses from the deadline on, reporting the expiry once per deadline', () => {
    let now = 1_000;
    let validUntil = 2_000;
    const expired: LeadershipExpiredError[] = [];
    const fence = new LeadershipFence({ validUntil: () => validUntil, now: () => now, onExpired: (error) => expired.push(error) });
    expect(fence.isOpen()).toBe(true);
    fence.check('ec2.createTags');
    now = 2_000;
    expect(fence.isOpen()).toBe(false);
    expect(() => fence.check('ec2.createTags')).toThrow(LeadershipExpiredError);
    expect(() => fence.check('elb.deleteLoadBalancer')).toThrow(/elb.deleteLoadBalancer: not sent: the leader lease may have expired .*0 ms ago|elb.deleteLoadBalancer: not sent/);
    expect(expired).toHaveLength(1);
    expect(expired[0]).toMatchObject({ kind: 'aborted', retryable: false, code: 'LeadershipExpired', operation: 'ec2.createTags', validUntil: 2_000 });
    // A renewal moves the deadline: calls go again, and the next expiry is reported again.
    validUntil = 4_000;
    fence.check('ec2.createTags');
    now = 4_500;
    expect(() => fence.check('ec2.createTags')).toThrow(LeadershipExpiredError);
    expect(expired.map((error) => error.validUntil)).toEqual([2_000, 4_000]);
  });

  it('a process that does not lead (deadline 0) is refused', () => {
    const fence = new LeadershipFence({ validUntil: () => 0 });
    expect(() => fence.check('x')).toThrow(LeadershipExpiredError);
  });

  it('follows the async context: timers and promises started under the fence see it, others do not', async () => {
    const fence = new LeadershipFence({ validUntil: () => Number.POSITIVE_INFINITY });
    expect(activeLeadershipFence()).toBeUndefined();
    const seen = await runFencedByLeadership(fence, () => new Promise((resolve) => setTimeout(() => resolve(activeLeadershipFence()), 1)));
    expect(seen).toBe(fence);
    expect(activeLeadershipFence()).toBeUndefined();
  });
});

describe('composeCloudPort: the fence stage', () => {
  it('refuses every attempt of a fenced context after the deadline; calls outside any fence go through', async () => {
    const sent: string[] = [];
    const port = composeCloudPort({ createRoute: async (name: string) => void sent.push(name) }, { name: 'routes' });
    let validUntil = Number.POSITIVE_INFINITY;
    const fence = new LeadershipFence({ validUntil: () => validUntil });
    await runFencedByLeadership(fence, () => port.createRoute('a'));
    validUntil = 0;
    await expect(runFencedByLeadership(fence, () => port.createRoute('b'))).rejects.toMatchObject({ name: 'LeadershipExpiredError', operation: 'routes.createRoute' });
    await port.createRoute('c');
    expect(sent).toEqual(['a', 'c']);
  });

  it('checks after the wait for the budget: a call queued while leading is not sent once the deadline has passed', async () => {
    const sent: number[] = [];
    const budget = new CloudApiBudget({ provider: 'test', qps: 5, burst: 1 });
    const port = composeCloudPort({ write: async (index: number) => void sent.push(index) }, { name: 'test', budget });
    const deadline = Date.now() + 100;
    const fence = new LeadershipFence({ validUntil: () => deadline });
    // One token at once, the next after 200 ms: past the deadline.
    const results = await runFencedByLeadership(fence, () => Promise.allSettled([port.write(1), port.write(2)]));
    expect(results[0]?.status).toBe('fulfilled');
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { name: 'LeadershipExpiredError' } });
    expect(sent).toEqual([1]);
    budget.close();
  });

  it('does not retry a refused call (not retryable), even with a retry policy', async () => {
    let attempts = 0;
    const port = composeCloudPort({ write: async () => void attempts++ }, { name: 'test', retry: { maxAttempts: 5, initialDelayMs: 1 } });
    const fence = new LeadershipFence({ validUntil: () => 0 });
    const started = Date.now();
    await expect(runFencedByLeadership(fence, () => port.write())).rejects.toBeInstanceOf(LeadershipExpiredError);
    await sleep(5);
    expect(attempts).toBe(0);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
