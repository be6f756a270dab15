export * from './apply-patch.js';
export * from './in-memory-informer.js';
export * from './in-memory-kube-access.js';
export * from './recording-event-recorder.js';
