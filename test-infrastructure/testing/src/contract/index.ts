/**
 * @ccm/testing/contract: provider contract suites. Importing this entry imports vitest, so only
 * test files may import it.
 */
export * from './contract-fixture.js';
export * from './deep-freeze.js';
export * from './instances-v2-contract.js';
export * from './load-balancer-contract.js';
export * from './routes-contract.js';
export * from './source-ranges-contract.js';
export { describeUpstreamBinaryFlagsContract, noEffectLines, type UpstreamBinaryFlag, type UpstreamBinaryFlagsContract } from './upstream-binary-flags-contract.js';
