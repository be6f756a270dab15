export * from './api-versions.js';
export * from './arm-error.js';
export * from './start-azure-simulator.js';
export type { ThrottleSettings } from './request-throttle.js';
export { ArmSchemaValidator, bodyShapeOf, validateBody, type ArmSchema, type BodyShape, type FieldSchema } from './arm-schema-validator.js';
export { JWT_BEARER_ASSERTION_TYPE, type FederatedIdentityCredential } from './client-assertion.js';
export { TOKEN_EXCHANGE_AUDIENCE } from './entra-id.js';
export { IMDS_TOKEN_PATH, type ManagedIdentity, type ManagedIdentities } from './instance-metadata-service.js';
