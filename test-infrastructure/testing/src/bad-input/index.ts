export * from './bad-input-arbitrary.js';
export * from './check-bad-inputs.js';
export * from './find-secret-leaks.js';
export * from './expect-invalid-annotation.js';
