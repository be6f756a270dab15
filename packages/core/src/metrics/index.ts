/** The metrics sink toolkit code publishes to; the runtime backs it with the Prometheus registry. */
export {
  type CounterMetric,
} from './metrics-sink.js';
