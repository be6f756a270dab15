/**
 * @ccm/testing/conformance: the contract between the conformance suite (`@ccm/e2e`) and a
 * provider's conformance driver (each provider's `test/conformance/`, published as
 * `@ccm/cloud-provider-<cloud>/conformance`). Types only: it lives here, below both, so that e2e
 * can import the drivers and the drivers can implement the contract without a package cycle.
 */
export type * from './provider-driver.js';
