/** Well-known labels, annotations, taints and finalizers (upstream `cloud-provider/api` and core v1). */
export * from './well-known.js';
