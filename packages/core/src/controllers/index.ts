/**
 * The controller contract for a provider's own controllers (AWS tagging), and the service
 * controller for tests that drive it directly. The four controllers run from `@ccm/core/app`.
 */
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
