/**
 * The controllers a cloud-controller-manager runs by default (upstream
 * `DefaultInitFuncConstructors`). Bins may pass their own map, e.g. spread this one and replace
 * or drop an entry; `--controllers` only knows the controllers of the map in use.
 */
import type { ControllerConstructor } from '../controllers/controller.js';
import { createCloudNodeLifecycleController } from '../controllers/node-lifecycle/cloud-node-lifecycle-controller.js';
import { createCloudNodeController } from '../controllers/node/cloud-node-controller.js';
import { createRouteController } from '../controllers/route/route-controller.js';
import { createServiceController } from '../controllers/service/service-controller.js';
import {
  CLOUD_NODE_CONTROLLER,
  CLOUD_NODE_LIFECYCLE_CONTROLLER,
  NODE_ROUTE_CONTROLLER,
  SERVICE_LB_CONTROLLER,
  type ControllerName,
} from '../names/controller-names.js';

export const defaultControllerConstructors: Readonly<Record<ControllerName, ControllerConstructor>> = {
  [CLOUD_NODE_CONTROLLER]: createCloudNodeController,
  [CLOUD_NODE_LIFECYCLE_CONTROLLER]: createCloudNodeLifecycleController,
  [SERVICE_LB_CONTROLLER]: createServiceController,
  [NODE_ROUTE_CONTROLLER]: createRouteController,
};

/** Upstream `ControllersDisabledByDefault`: none of the cloud controllers. */
export const CONTROLLERS_DISABLED_BY_DEFAULT: ReadonlySet<string> = new Set();
