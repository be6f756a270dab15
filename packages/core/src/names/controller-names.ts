/** Canonical controller names and their aliases (upstream names/controller_names.go). Never remove an alias. */
export const CLOUD_NODE_CONTROLLER = 'cloud-node-controller';
export const CLOUD_NODE_LIFECYCLE_CONTROLLER = 'cloud-node-lifecycle-controller';
export const SERVICE_LB_CONTROLLER = 'service-lb-controller';
export const NODE_ROUTE_CONTROLLER = 'node-route-controller';

export const CONTROLLER_NAMES = [
  CLOUD_NODE_CONTROLLER,
  CLOUD_NODE_LIFECYCLE_CONTROLLER,
  SERVICE_LB_CONTROLLER,
  NODE_ROUTE_CONTROLLER,
] as const;
export type ControllerName = (typeof CONTROLLER_NAMES)[number];

/** alias -> canonical name */
export const CONTROLLER_ALIASES: Readonly<Record<string, ControllerName>> = {
  'cloud-node': CLOUD_NODE_CONTROLLER,
  'cloud-node-lifecycle': CLOUD_NODE_LIFECYCLE_CONTROLLER,
  service: SERVICE_LB_CONTROLLER,
  route: NODE_ROUTE_CONTROLLER,
};

/** The client identity (user agent) each controller uses upstream. */
export const CONTROLLER_CLIENT_NAMES: Readonly<Record<ControllerName, string>> = {
  [CLOUD_NODE_CONTROLLER]: 'node-controller',
  [CLOUD_NODE_LIFECYCLE_CONTROLLER]: 'node-controller',
  [SERVICE_LB_CONTROLLER]: 'service-controller',
  [NODE_ROUTE_CONTROLLER]: 'route-controller',
};
