import type { ProxiedRequest } from './proxied-request.js';

/** True for `?watch=true` / `?watch=1` requests (streamed answers). */
export function isWatchRequest(request: Pick<ProxiedRequest, 'path'>): boolean {
  const watch = new URL(request.path, 'http://proxy').searchParams.get('watch');
  return watch === 'true' || watch === '1';
}

/**
 * The Kubernetes verb and resource of a request, e.g. `update leases`, `watch nodes`,
 * `patch nodes/status`, `list services`: the operation name the proxy's fault plan and
 * records use for the API server.
 */
export function kubeOperationOf(request: Pick<ProxiedRequest, 'method' | 'path'>): string {
  const url = new URL(request.path, 'http://proxy');
  const segments = url.pathname.split('/').filter((segment) => segment !== '');
  let rest: string[];
  if (segments[0] === 'api') rest = segments.slice(2);
  else if (segments[0] === 'apis') rest = segments.slice(3);
  else return `${request.method.toLowerCase()} ${url.pathname}`;
  if (rest[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
  const [resource = '', name, subresource] = rest;
  const named = name !== undefined;
  const method = request.method.toUpperCase();
  let verb: string;
  if (method === 'GET') verb = isWatchRequest(request) ? 'watch' : named ? 'get' : 'list';
  else if (method === 'POST') verb = 'create';
  else if (method === 'PUT') verb = 'update';
  else if (method === 'PATCH') verb = 'patch';
  else if (method === 'DELETE') verb = named ? 'delete' : 'deletecollection';
  else verb = method.toLowerCase();
  return `${verb} ${resource}${subresource === undefined ? '' : `/${subresource}`}`;
}
