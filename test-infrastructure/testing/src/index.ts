/**
 * @ccm/testing: the sandbox cloud (in process and over HTTP), Kubernetes object builders.
 * The provider contract suites import vitest and live in the separate `@ccm/testing/contract` entry;
 * the in-memory kube for controller tests is `@ccm/testing/kube`.
 */
export * from './sandbox/index.js';
export * from './builders/index.js';
