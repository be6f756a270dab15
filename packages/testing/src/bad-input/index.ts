export * from './bad-input-arbitrary.js';
export * from './check-bad-inputs.js';
