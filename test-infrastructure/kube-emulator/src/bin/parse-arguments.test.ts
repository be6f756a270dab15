import { describe, expect, it } from 'vitest';
import { parseArguments, UsageError } from './parse-arguments.js';

describe('parseArguments', () => {
  it('defaults to an ephemeral port on 127.0.0.1 over HTTP', () => {
    expect(parseArguments([])).toEqual({ port: 0, host: '127.0.0.1', https: false, help: false });
  });

  it('reads every flag in both spellings', () => {
    expect(parseArguments(['--port', '8080', '--host=0.0.0.0', '--https', '--kubeconfig', '/tmp/k', '--watch-history-size=50', '--bookmark-interval-ms', '100'])).toEqual({
      port: 8080,
      host: '0.0.0.0',
      https: true,
      kubeconfig: '/tmp/k',
      watchHistorySize: 50,
      bookmarkIntervalMs: 100,
      help: false,
    });
    expect(parseArguments(['-h']).help).toBe(true);
  });

  it.each([
    [['--port', 'eighty'], '--port must be an integer between 0 and 65535, got "eighty"'],
    [['--port', '70000'], '--port must be an integer between 0 and 65535'],
    [['--port'], '--port needs a value'],
    [['--kubeconfig', '--https'], '--kubeconfig needs a value'],
    [['--verbose'], 'unknown flag --verbose'],
    [['--https=maybe'], '--https takes no value or true/false'],
    [['serve'], 'unexpected argument "serve"'],
    [['--watch-history-size', '0'], '--watch-history-size must be an integer between 1'],
  ])('rejects %j', (argv, message) => {
    expect(() => parseArguments(argv)).toThrow(UsageError);
    expect(() => parseArguments(argv)).toThrow(message);
  });
});
