export * from './api-versions.js';
export * from './arm-error.js';
export * from './start-azure-simulator.js';
export type { ThrottleSettings } from './request-throttle.js';
export { ArmSchemaValidator, bodyShapeOf, validateBody, type ArmSchema, type BodyShape, type FieldSchema } from './arm-schema-validator.js';
