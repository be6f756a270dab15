/** Small helpers shared by several areas of @ccm/core and by the providers. */
export {
  sleepOrThrowOnAbort,
} from './abortable-sleep.js';
export {
  errorMessage,
} from './error-message.js';
export {
  parseGoDuration,
} from './go-duration.js';
export {
  parseGoBool,
} from './parse-go-bool.js';
