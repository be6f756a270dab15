/**
 * Starts a Node informer for the provider (its own, like upstream's informer registered in
 * `SetInformers`) once the CCM runs; stops with the CCM. Until it has synced, lookups fall back to
 * resource-based names and private DNS names.
 */
import { CoreV1Api } from '@kubernetes/client-node';
import { createClientNodeWatch, listNodes, RequestExecutor, ResilientInformer, TokenBucket, type CloudInitializeContext, type V1Node } from '@ccm/core';
import type { NodeDirectory } from '../operations/node-directory.js';
import { IndexedNodeDirectory } from './indexed-node-directory.js';

const USER_AGENT = 'aws-cloud-provider';

export function startNodeDirectory(context: CloudInitializeContext): NodeDirectory {
  const logger = context.logger.child({ component: 'aws-node-directory' });
  const kubeConfig = context.clientBuilder.kubeConfig(USER_AGENT);
  const executor = new RequestExecutor({ bucket: new TokenBucket({ qps: 5, burst: 10 }), userAgent: USER_AGENT, logger });
  const informer = new ResilientInformer<V1Node>({
    resource: 'nodes',
    apiVersion: 'v1',
    kind: 'Node',
    model: 'V1Node',
    watchPath: '/api/v1/nodes',
    list: listNodes(kubeConfig.makeApiClient(CoreV1Api), executor),
    watch: createClientNodeWatch(kubeConfig),
    throttle: () => executor.throttle(),
    logger,
  });
  const directory = new IndexedNodeDirectory();
  informer.addHandlers(directory.handlers);
  informer.start();
  context.signal.addEventListener('abort', () => void informer.stop(), { once: true });
  return directory;
}
