/** The metric types of the sink providers publish to; the runtime backs it with the Prometheus registry. */
export {
  type CounterMetric,
} from './metrics-sink.js';
