export { startGceSimulator, type GceSimulator, type GceSimulatorOptions } from './start-gce-simulator.js';
export { DiscoveryValidator } from './discovery/discovery-validator.js';
export { readDiscoveryDocument, discoveryMethods, type DiscoveryDocument, type DiscoveryMethod } from './discovery/discovery-document.js';
export { parseComputeFilter, type ComputeFilter } from './compute-filter.js';
export { GceError, type GceErrorReason } from './gce-error.js';
export { discoveryDocumentPath, DISCOVERY_DOCUMENT_ENV, DEFAULT_DISCOVERY_DOCUMENT, DISCOVERY_INSTALL_HINT } from './discovery/discovery-document-location.js';
