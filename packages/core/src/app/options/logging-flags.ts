import { defineFlagGroup } from './flag-definition.js';

export const LOGGING_FORMATS = ['text', 'json'] as const;
export type LoggingFormat = (typeof LOGGING_FORMATS)[number];

/** Upstream `logs` section (component-base logs/api/v1): klog verbosity and the output format. */
export const loggingFlags = defineFlagGroup('logs', {
  verbosity: {
    name: 'v',
    shorthand: 'v',
    type: 'int',
    valueName: 'Level',
    minimum: 0,
    maximum: 2_147_483_647,
    default: 0,
    help: 'number for the log level verbosity',
  },
  loggingFormat: {
    name: 'logging-format',
    type: 'string',
    default: 'text',
    help: `Sets the log format. Permitted formats: ${LOGGING_FORMATS.map((format) => `"${format}"`).join(', ')}.`,
    check: (value) => ((LOGGING_FORMATS as readonly string[]).includes(value) ? undefined : `unsupported log format (use ${LOGGING_FORMATS.join(' or ')})`),
  },
  vmodule: {
    name: 'vmodule',
    type: 'stringList',
    valueName: 'pattern=N,...',
    default: [],
    help: 'comma-separated list of pattern=N settings for file-filtered logging (only works for text log format)',
    ignored: 'per-file verbosity is not supported; use -v',
  },
  logFlushFrequencyMs: {
    name: 'log-flush-frequency',
    type: 'duration',
    default: 5_000,
    help: 'Maximum number of seconds between log flushes',
    ignored: 'log lines are written to stderr as they are produced',
  },
  logJsonSplitStream: {
    name: 'log-json-split-stream',
    type: 'bool',
    default: false,
    help: '[Alpha] In JSON format, write error messages to stderr and info messages to stdout.',
    ignored: 'all log lines go to stderr',
  },
  logJsonInfoBufferSize: {
    name: 'log-json-info-buffer-size',
    type: 'string',
    valueName: 'quantity',
    default: '0',
    help: '[Alpha] In JSON format with split output streams, the info messages can be buffered for a while to increase performance.',
    ignored: 'all log lines go to stderr unbuffered',
  },
  logTextSplitStream: {
    name: 'log-text-split-stream',
    type: 'bool',
    default: false,
    help: '[Alpha] In text format, write error messages to stderr and info messages to stdout.',
    ignored: 'all log lines go to stderr',
  },
  logTextInfoBufferSize: {
    name: 'log-text-info-buffer-size',
    type: 'string',
    valueName: 'quantity',
    default: '0',
    help: '[Alpha] In text format with split output streams, the info messages can be buffered for a while to increase performance.',
    ignored: 'all log lines go to stderr unbuffered',
  },
});
