/**
 * @ccm/vsphere-client: a small typed vSphere client. VIM SOAP (`VimClient`: service content,
 * sessions, SearchIndex, PropertyCollector, ancestors, datacenters) and vAPI REST tagging
 * (`VapiTaggingClient`), over undici fetch with vCenter TLS options (`createVsphereDispatcher`).
 */
export * from './credentials.js';
export * from './vsphere-error.js';
export * from './http/http-fetch.js';
export * from './tls/create-vsphere-dispatcher.js';
export * from './vim/managed-object-reference.js';
export * from './vim/service-content.js';
export * from './vim/property-collector-specs.js';
export * from './vim/virtual-machine-properties.js';
export * from './vim/inventory-paths.js';
export * from './vim/vim-client.js';
export * from './rest/vapi-tagging-client.js';
export { readSoapResponse, faultError } from './soap/soap-transport.js';
export type { Dispatcher as VsphereDispatcher } from 'undici';
