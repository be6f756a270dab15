export * from './gcfg-document.js';
export * from './gcfg-schema.js';
export * from './parse-gcfg.js';
export * from './render-gcfg-schema-doc.js';
