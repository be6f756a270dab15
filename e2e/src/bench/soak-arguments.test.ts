import { describe, expect, it } from 'vitest';
import { parseSoakArguments, SoakArgumentError } from './soak-arguments.js';

describe('parseSoakArguments', () => {
  it('defaults to 30 minutes on the sandbox', () => {
    expect(parseSoakArguments([])).toMatchObject({ minutes: 30, provider: 'sandbox', warmUpMinutes: 5, maxSlopeBytesPerMinute: 256 * 1024 });
  });
  it('reads both flag forms', () => {
    expect(parseSoakArguments(['--minutes', '12', '--provider=sandbox', '--max-slope-kib-per-minute=64', '--seed', '7'])).toMatchObject({
      minutes: 12,
      seed: 7,
      maxSlopeBytesPerMinute: 64 * 1024,
    });
  });
  it('refuses other providers, bad numbers and unknown flags', () => {
    expect(() => parseSoakArguments(['--provider', 'aws'])).toThrow(SoakArgumentError);
    expect(() => parseSoakArguments(['--minutes', 'ten'])).toThrow(/--minutes must be a number/);
    expect(() => parseSoakArguments(['--error-rate', '2'])).toThrow(/between 0 and 1/);
    expect(() => parseSoakArguments(['--nodes'])).toThrow(/needs a value/);
    expect(() => parseSoakArguments(['--bogus'])).toThrow(/unknown argument/);
  });
});
