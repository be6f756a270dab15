/**
 * The driver contract lives in `@ccm/testing/conformance`, below both the suite and the
 * providers' drivers (which `@ccm/e2e` imports); the suite's files import it through here.
 */
export type * from '@ccm/testing/conformance';
