export { deadlineSignal, type DeadlineSignal } from './deadline-signal.js';
