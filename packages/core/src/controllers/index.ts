export {
  type Controller,
  type ControllerContext,
} from './controller.js';
export {
  SERVICE_CONTROLLER_EVENT_COMPONENT,
  ServiceController,
} from './service/service-controller.js';
export {
  registerServiceControllerMetrics,
} from './service/service-metrics.js';
