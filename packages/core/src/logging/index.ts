/** The logging port every component receives, and the runtime's logger (klog text or component-base JSON). */
export {
  createLogger,
  type LogDestination,
} from './create-logger.js';
export {
  type LogFields,
  type Logger,
  silentLogger,
} from './logger.js';
export {
  INSECURE_TLS_MESSAGE,
  warnInsecureTls,
} from './warn-insecure-tls.js';
