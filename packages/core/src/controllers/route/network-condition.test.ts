import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { formatKubeTime, networkConditionPatch, networkConditionUpToDate } from './network-condition.js';

const nodeWith = (condition?: { status: string; reason?: string }): V1Node => ({
  metadata: { name: 'node1' },
  status: { conditions: condition === undefined ? [] : [{ type: 'NetworkUnavailable', ...condition }] },
});

describe('TestUpdateNetworkingCondition (skip decision)', () => {
  it.each([
    ['no condition, routes created', undefined, true, false],
    ['no condition, routes not created', undefined, false, false],
    ['False/RouteCreated, routes created (skipped)', { status: 'False', reason: 'RouteCreated' }, true, true],
    ['True/NoRouteCreated, routes not created (skipped)', { status: 'True', reason: 'NoRouteCreated' }, false, true],
    ['False/CalicoIsUp, routes created (patched: reason differs)', { status: 'False', reason: 'CalicoIsUp' }, true, false],
    ['True/SomethingElse, routes not created (patched: reason differs)', { status: 'True', reason: 'SomethingElse' }, false, false],
    ['False/RouteCreated, routes not created (transition)', { status: 'False', reason: 'RouteCreated' }, false, false],
    ['True/NoRouteCreated, routes created (transition)', { status: 'True', reason: 'NoRouteCreated' }, true, false],
  ])('%s', (_name, condition, routesCreated, upToDate) => {
    expect(networkConditionUpToDate(nodeWith(condition), routesCreated)).toBe(upToDate);
  });
});

describe('networkConditionPatch', () => {
  const now = new Date('2026-01-02T03:04:05.678Z');

  it('sets False/RouteCreated with both timestamps (RFC 3339 seconds) when routes were created', () => {
    expect(networkConditionPatch(true, now)).toEqual({
      status: {
        conditions: [
          {
            type: 'NetworkUnavailable',
            status: 'False',
            lastHeartbeatTime: '2026-01-02T03:04:05Z',
            lastTransitionTime: '2026-01-02T03:04:05Z',
            reason: 'RouteCreated',
            message: 'RouteController created a route',
          },
        ],
      },
    });
  });

  it('sets True/NoRouteCreated when a route is missing', () => {
    const condition = (networkConditionPatch(false, now) as { status: { conditions: Array<Record<string, string>> } }).status.conditions[0];
    expect(condition).toMatchObject({ status: 'True', reason: 'NoRouteCreated', message: 'RouteController failed to create a route' });
  });

  it('formats metav1.Time like Go', () => {
    expect(formatKubeTime(new Date('2024-01-01T00:00:00.999Z'))).toBe('2024-01-01T00:00:00Z');
  });
});
