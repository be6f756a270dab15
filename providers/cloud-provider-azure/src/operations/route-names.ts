/**
 * Route names as upstream writes them (dual-stack naming, always on at upstream HEAD):
 * `<node name>____<CIDR without ':', '.' and '/'>`, e.g. `node-1____10244100024`. A name
 * without the separator is an older single-stack route named after its node.
 */
export const ROUTE_NAME_SEPARATOR = '____';

export function routeNameOf(nodeName: string, destinationCidr: string): string {
  return `${nodeName}${ROUTE_NAME_SEPARATOR}${destinationCidr.replaceAll(':', '').replaceAll('.', '').replaceAll('/', '')}`;
}

export function nodeNameOfRoute(routeName: string): string {
  return routeName.split(ROUTE_NAME_SEPARATOR)[0] ?? routeName;
}
