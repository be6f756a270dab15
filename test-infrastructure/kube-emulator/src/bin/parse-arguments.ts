/** Command-line flags of the kube-emulator binary. */

export interface CliOptions {
  port: number;
  host: string;
  https: boolean;
  kubeconfig?: string;
  watchHistorySize?: number;
  bookmarkIntervalMs?: number;
  help: boolean;
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const usage = `Usage: kube-emulator [flags]

A strict in-memory Kubernetes API server for tests, demos and benchmarks.

Flags:
  --port <n>                  port to listen on; 0 picks a free one (default 0)
  --host <address>            address to bind (default 127.0.0.1)
  --https                     serve HTTPS with a self-signed certificate
  --kubeconfig <file>         write a kubeconfig for the emulator to <file>
  --watch-history-size <n>    changes kept per resource for watch resumption (default 10000)
  --bookmark-interval-ms <n>  period of watch BOOKMARK events (default 60000)
  -h, --help                  show this help
`;

function integer(flag: string, value: string, minimum: number, maximum: number): number {
  if (!/^\d+$/.test(value) || Number(value) < minimum || Number(value) > maximum) {
    throw new UsageError(`${flag} must be an integer between ${minimum} and ${maximum}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

export function parseArguments(argv: readonly string[]): CliOptions {
  const options: CliOptions = { port: 0, host: '127.0.0.1', https: false, help: false };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    const equals = argument.indexOf('=');
    const flag = argument.startsWith('--') && equals > 0 ? argument.slice(0, equals) : argument;
    const inlineValue = argument.startsWith('--') && equals > 0 ? argument.slice(equals + 1) : undefined;
    const value = (): string => {
      if (inlineValue !== undefined) return inlineValue;
      const next = argv[index + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      index++;
      return next;
    };
    switch (flag) {
      case '--port':
        options.port = integer(flag, value(), 0, 65535);
        break;
      case '--host': {
        const host = value();
        if (host === '') throw new UsageError('--host must not be empty');
        options.host = host;
        break;
      }
      case '--https':
        if (inlineValue !== undefined && inlineValue !== 'true' && inlineValue !== 'false') throw new UsageError(`--https takes no value or true/false, got ${JSON.stringify(inlineValue)}`);
        options.https = inlineValue !== 'false';
        break;
      case '--kubeconfig': {
        const path = value();
        if (path === '') throw new UsageError('--kubeconfig must not be empty');
        options.kubeconfig = path;
        break;
      }
      case '--watch-history-size':
        options.watchHistorySize = integer(flag, value(), 1, 10_000_000);
        break;
      case '--bookmark-interval-ms':
        options.bookmarkIntervalMs = integer(flag, value(), 1, 86_400_000);
        break;
      case '-h':
      case '--help':
        options.help = true;
        break;
      default:
        throw new UsageError(argument.startsWith('-') ? `unknown flag ${flag}` : `unexpected argument ${JSON.stringify(argument)}`);
    }
  }
  return options;
}
