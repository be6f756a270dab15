export * from './api-versions.js';
export * from './arm-error.js';
export * from './start-azure-simulator.js';
export type { ThrottleSettings } from './request-throttle.js';
