import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchCcmEndpoint, metricFamilyNames, parseMetricSamples } from './ccm-endpoints.js';

const fixture = (name: string): string => readFileSync(new URL(`./test-fixtures/${name}`, import.meta.url), 'utf8');

describe('fetchCcmEndpoint', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    // Stands in for a CCM's secure port with a self-signed certificate.
    server = createServer({ cert: fixture('localhost-test-only.crt'), key: fixture('localhost-test-only.key') }, (request, response) => {
      if (request.url === '/healthz') {
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      } else {
        response.writeHead(403).end('forbidden');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('reads a path over HTTPS from a self-signed server', async () => {
    expect(await fetchCcmEndpoint(port, '/healthz')).toEqual({ status: 200, body: 'ok' });
  });

  it('returns non-2xx answers instead of throwing', async () => {
    expect(await fetchCcmEndpoint(port, '/metrics')).toEqual({ status: 403, body: 'forbidden' });
  });

  it('rejects when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(fetchCcmEndpoint(freePort, '/healthz')).rejects.toThrow(/ECONNREFUSED/);
  });
});

const exposition = `# HELP node_controller_initial_node_sync_delay_seconds Number of seconds after node creation when NodeController finished the initial synchronization of a single node.
# TYPE node_controller_initial_node_sync_delay_seconds histogram
node_controller_initial_node_sync_delay_seconds_bucket{le="1"} 2
node_controller_initial_node_sync_delay_seconds_bucket{le="+Inf"} 2
node_controller_initial_node_sync_delay_seconds_sum 0.5
node_controller_initial_node_sync_delay_seconds_count 2
# TYPE running_managed_controllers gauge
running_managed_controllers{manager="cloud-controller-manager",name="cloud-node"} 1
running_managed_controllers{manager="cloud-controller-manager",name="route"} 0
untyped_sample{path="a \\"quoted\\" value"} 3.5
`;

describe('metric parsing', () => {
  it('lists metric families from TYPE lines and untyped samples', () => {
    expect([...metricFamilyNames(exposition)].sort()).toEqual([
      'node_controller_initial_node_sync_delay_seconds',
      'running_managed_controllers',
      'untyped_sample',
    ]);
  });

  it('parses samples with labels and escaped values', () => {
    const samples = parseMetricSamples(exposition);
    expect(samples).toHaveLength(7);
    expect(samples.find((sample) => sample.name === 'running_managed_controllers' && sample.labels['name'] === 'cloud-node')).toEqual({
      name: 'running_managed_controllers',
      labels: { manager: 'cloud-controller-manager', name: 'cloud-node' },
      value: 1,
    });
    expect(samples.at(-1)).toEqual({ name: 'untyped_sample', labels: { path: 'a "quoted" value' }, value: 3.5 });
    expect(samples.find((sample) => sample.labels['le'] === '+Inf')?.value).toBe(2);
  });
});
