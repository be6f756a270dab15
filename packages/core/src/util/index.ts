/** Small helpers the providers share with core: `errorMessage`, Go durations and booleans, the abortable sleep. */
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
