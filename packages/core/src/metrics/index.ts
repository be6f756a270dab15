export * from './metrics-sink.js';
