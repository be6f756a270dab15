import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { isDispatcherShared, shareDispatcher } from './share-dispatcher.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  server = undefined;
});

/** An API server answering every GET with an empty NodeList, counting TCP connections. */
async function startCountingServer(): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ apiVersion: 'v1', kind: 'NodeList', metadata: { resourceVersion: '1' }, items: [] }));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

function kubeConfigFor(url: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  // Any TLS-related setting makes client-node build a dispatcher per request; skip-verify is one.
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'test', server: url, skipTLSVerify: true }],
    users: [{ name: 'test', token: 'secret' }],
    contexts: [{ name: 'test', cluster: 'test', user: 'test' }],
    currentContext: 'test',
  });
  return kubeConfig;
}

async function listNodesSequentially(kubeConfig: KubeConfig, times: number): Promise<void> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  for (let index = 0; index < times; index++) await core.listNode();
}

describe('shareDispatcher', () => {
  it('client-node alone opens a connection per request (the behaviour being fixed)', async () => {
    const api = await startCountingServer();
    await listNodesSequentially(kubeConfigFor(api.url), 10);
    expect(api.connections()).toBe(10);
  });

  it('reuses one connection across requests', async () => {
    const api = await startCountingServer();
    const kubeConfig = shareDispatcher(kubeConfigFor(api.url));
    expect(isDispatcherShared(kubeConfig)).toBe(true);
    await listNodesSequentially(kubeConfig, 10);
    // The first socket may not be back in the pool when the second request starts; after that, reuse.
    expect(api.connections()).toBeLessThanOrEqual(2);
  });

  it('is idempotent and keeps working after the connection options change', async () => {
    const api = await startCountingServer();
    const kubeConfig = shareDispatcher(shareDispatcher(kubeConfigFor(api.url)));
    await listNodesSequentially(kubeConfig, 6);
    const before = api.connections();
    expect(before).toBeLessThanOrEqual(2);
    // A new TLS setting (as after a certificate rotation): a new dispatcher, the old one closed.
    Reflect.set(kubeConfig.clusters[0]!, 'tlsServerName', 'kubernetes.default');
    await listNodesSequentially(kubeConfig, 6);
    const added = api.connections() - before;
    expect(added).toBeGreaterThanOrEqual(1);
    expect(added).toBeLessThanOrEqual(2);
  });
});
