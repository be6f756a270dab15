/**
 * The node and event writes through JsonWriteClient against the same calls through client-node's
 * generated API (the adapters without `writes`): the server must see the same requests and the
 * callers get the same results (same classes, same fields) and the same errors.
 */
import { CoreV1Api, V1MicroTime, type CoreV1Event, type V1Node } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/logger.js';
import type { EventSink } from '../event-recorder.js';
import type { NodeApi } from '../ports.js';
import { FakeApiServer, status } from './test-support/fake-api-server.js';
import { requestAsSeen } from './test-support/request-as-seen.js';
import { createClientNodeEventSink } from './client-node-event-sink.js';
import { createClientNodeNodeApi } from './client-node-node-api.js';
import { JsonWriteClient } from './json-write-client.js';
import { RequestExecutor } from './request-executor.js';

/** A Node as a kubelet registers it and the API server answers it (every kind of field the models know, and some they do not). */
const wireNode = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {
    name: 'n1',
    uid: '0c9d7c8e-1',
    resourceVersion: '8',
    creationTimestamp: '2026-01-01T00:00:00Z',
    labels: { 'kubernetes.io/hostname': 'n1', 'node.kubernetes.io/instance-type': 'm1' },
    annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'example.com/ünïcödé': 'välue' },
    managedFields: [{ manager: 'kubelet', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': {} } } }],
  },
  spec: { providerID: 'sandbox://i-1', podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'], taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: '2026-01-01T00:00:01Z' }] },
  status: {
    capacity: { cpu: '2', memory: '4Gi', pods: '110' },
    allocatable: { cpu: '1900m', memory: '3Gi' },
    addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'n1' }],
    conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletNotReady', lastHeartbeatTime: '2026-01-01T00:00:02Z', lastTransitionTime: '2026-01-01T00:00:02Z' }],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: { kubeletVersion: 'v1.36.3', architecture: 'amd64', operatingSystem: 'linux', machineID: 'm', systemUUID: 's', bootID: 'b', kernelVersion: 'k', osImage: 'o', containerRuntimeVersion: 'c', kubeProxyVersion: '' },
    notAModelField: { kept: false },
  },
};
const wireEvent = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'n1.17d3', namespace: 'default', resourceVersion: '9', creationTimestamp: '2026-01-01T00:00:03Z' },
  involvedObject: { kind: 'Node', name: 'n1', uid: 'n1', apiVersion: 'v1' },
  reason: 'Synced',
  message: 'Node synced successfully',
  source: { component: 'cloud-node-controller' },
  type: 'Normal',
  count: 1,
  firstTimestamp: '2026-01-01T00:00:03Z',
  lastTimestamp: '2026-01-01T00:00:03Z',
  eventTime: null,
  reportingComponent: '',
  reportingInstance: '',
};

/** The value, or the error: its class, message, code and reason, and its cause (the ApiException) without the Date header. */
async function outcome(call: Promise<unknown>): Promise<unknown> {
  try {
    return { value: await call };
  } catch (error) {
    const failure = error as Error & { statusCode?: number; reason?: string };
    const cause = failure.cause as (Error & { code?: number; body?: unknown; headers?: Record<string, string> }) | undefined;
    return {
      error: [failure.constructor.name, failure.message, failure.statusCode, failure.reason],
      cause: [cause?.constructor.name, cause?.message.replace(/"date":"[^"]*"/, ''), cause?.code, cause?.body, { ...cause?.headers, date: '' }],
    };
  }
}

describe('JsonWriteClient against client-node', () => {
  let server: FakeApiServer;
  let viaClientNode: { nodes: NodeApi; events: EventSink };
  let viaWrites: { nodes: NodeApi; events: EventSink };

  beforeEach(async () => {
    server = new FakeApiServer();
    await server.start();
    const config = server.kubeConfig();
    const core = config.makeApiClient(CoreV1Api);
    const executor = new RequestExecutor({ userAgent: 'cloud-controller-manager', logger: silentLogger, maxRetries: 0 });
    const writes = new JsonWriteClient(config, 'cloud-controller-manager');
    viaClientNode = { nodes: createClientNodeNodeApi(core, executor), events: createClientNodeEventSink(core, executor) };
    viaWrites = { nodes: createClientNodeNodeApi(core, executor, writes), events: createClientNodeEventSink(core, executor, writes) };
    server.on('PUT', /^\/api\/v1\/nodes\/n1$/, () => ({ body: wireNode }));
    server.on('PATCH', /^\/api\/v1\/nodes\/n1(\/status)?$/, () => ({ body: wireNode }));
    server.on('PATCH', /^\/api\/v1\/nodes\/gone\/status$/, () => ({ status: 404, body: status(404, 'NotFound', 'nodes "gone" not found') }));
    server.on('PUT', /^\/api\/v1\/nodes\/stale$/, () => ({ status: 409, body: status(409, 'Conflict', 'Operation cannot be fulfilled on nodes "stale": the object has been modified') }));
    server.on('PUT', /^\/api\/v1\/nodes\/denied$/, () => ({ status: 401, body: status(401, 'Unauthorized', 'Unauthorized') }));
    server.on('PUT', /^\/api\/v1\/nodes\/busy$/, () => ({ status: 429, body: status(429, 'TooManyRequests', 'slow down'), headers: { 'Retry-After': '1' } }));
    server.on('PUT', /^\/api\/v1\/nodes\/html$/, () => ({ status: 200, body: '<html></html>', headers: { 'content-type': 'text/html' } }));
    server.on('POST', /^\/api\/v1\/namespaces\/default\/events$/, () => ({ status: 201, body: wireEvent }));
    server.on('PATCH', /^\/api\/v1\/namespaces\/default\/events\/n1\.17d3$/, () => ({ body: { ...wireEvent, count: 2 } }));
  });
  afterEach(async () => {
    await server.close();
  });

  const informerNode = (name: string): V1Node => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, resourceVersion: '7', creationTimestamp: new Date('2026-01-01T00:00:00Z'), labels: { 'node.kubernetes.io/instance-type': 'm1' } },
    spec: { providerID: 'sandbox://i-1', taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: new Date('2026-01-01T00:00:01Z') }] },
    status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }] },
  });
  const event: CoreV1Event = {
    metadata: { name: 'n1.17d3', namespace: 'default' },
    involvedObject: { kind: 'Node', name: 'n1', uid: 'n1' },
    reason: 'Synced',
    message: 'Node synced successfully',
    source: { component: 'cloud-node-controller' },
    type: 'Normal',
    count: 1,
    firstTimestamp: new Date('2026-01-01T00:00:03Z'),
    lastTimestamp: new Date('2026-01-01T00:00:03Z'),
    eventTime: new V1MicroTime('2026-01-01T00:00:03.123456Z'),
  };

  const calls: Array<[string, (api: { nodes: NodeApi; events: EventSink }) => Promise<unknown>]> = [
    ['update node', (api) => api.nodes.update(informerNode('n1'))],
    ['update node with a field the model does not know (dropped, as client-node drops it)', (api) => api.nodes.update({ ...informerNode('n1'), extra: 1 } as V1Node)],
    ['patch node (merge)', (api) => api.nodes.patch('n1', { metadata: { labels: { a: 'b' } } }, 'merge')],
    ['patch node (json patch)', (api) => api.nodes.patch('n1', [{ op: 'remove', path: '/spec/taints/0' }], 'json')],
    [
      'strategic merge patch of node status, Dates in the body',
      (api) => api.nodes.patchStatus('n1', { status: { addresses: [{ type: 'InternalIP', address: '10.0.0.2' }], conditions: [{ type: 'NetworkUnavailable', lastTransitionTime: new Date('2026-02-03T04:05:06Z') }] } }, 'strategic'),
    ],
    ['patch status of a missing node (404)', (api) => api.nodes.patchStatus('gone', { status: {} }, 'strategic')],
    ['update conflict (409)', (api) => api.nodes.update(informerNode('stale'))],
    ['unauthorized (401)', (api) => api.nodes.update(informerNode('denied'))],
    ['throttled (429 with Retry-After)', (api) => api.nodes.update(informerNode('busy'))],
    ['an answer that is not JSON', (api) => api.nodes.update(informerNode('html'))],
    ['create event', (api) => api.events.create('default', event)],
    ['patch event', (api) => api.events.patch('default', 'n1.17d3', { count: 2, lastTimestamp: '2026-01-01T00:00:04Z', message: 'Node synced successfully' })],
  ];

  it.each(calls)('%s: same request, same result', async (_, call) => {
    const expected = await outcome(call(viaClientNode));
    const actual = await outcome(call(viaWrites));
    expect(server.requests).toHaveLength(2);
    expect(requestAsSeen(server.requests[1])).toEqual(requestAsSeen(server.requests[0]));
    expect(actual).toStrictEqual(expected);
  });
});
