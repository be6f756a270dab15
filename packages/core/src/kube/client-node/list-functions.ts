/** Paginated list calls for the informers, through the rate-limited request executor. */
import type { CoreV1Api, V1Node, V1Secret, V1Service } from '@kubernetes/client-node';
import type { ListPage } from './resilient-informer.js';
import type { RequestExecutor } from './request-executor.js';

interface ListResult<T> {
  items: T[];
  metadata?: { resourceVersion?: string; _continue?: string };
}

const toPage = <T>(result: ListResult<T>): ListPage<T> => ({
  items: result.items,
  resourceVersion: result.metadata?.resourceVersion ?? '',
  ...(result.metadata?._continue ? { continueToken: result.metadata._continue } : {}),
});

export function listNodes(core: CoreV1Api, executor: RequestExecutor) {
  return async (page: { limit: number; continueToken?: string }): Promise<ListPage<V1Node>> =>
    toPage(await executor.execute({ method: 'GET', description: 'list nodes' }, (options) => core.listNode({ limit: page.limit, _continue: page.continueToken }, options)));
}

export function listServicesInAllNamespaces(core: CoreV1Api, executor: RequestExecutor) {
  return async (page: { limit: number; continueToken?: string }): Promise<ListPage<V1Service>> =>
    toPage(
      await executor.execute({ method: 'GET', description: 'list services' }, (options) => core.listServiceForAllNamespaces({ limit: page.limit, _continue: page.continueToken }, options)),
    );
}

/** Secrets of one namespace, optionally narrowed by a field selector (`metadata.name=<name>`). */
export function listSecrets(core: CoreV1Api, executor: RequestExecutor, namespace: string, fieldSelector?: string) {
  return async (page: { limit: number; continueToken?: string }): Promise<ListPage<V1Secret>> =>
    toPage(
      await executor.execute({ method: 'GET', description: `list secrets in ${namespace}` }, (options) =>
        core.listNamespacedSecret({ namespace, limit: page.limit, _continue: page.continueToken, ...(fieldSelector === undefined ? {} : { fieldSelector }) }, options),
      ),
    );
}
