/** The bad-input corpus of the sandbox cloud config (gcfg): seeded, `BAD_INPUT_RUNS` cases (default 2000). */
import { describe, expect, it } from 'vitest';
import { CloudConfigError } from '@ccm/core/config';
import { checkBadInputs } from '@ccm/testing/bad-input';
import { readSandboxCloudConfig } from '../../src/config/sandbox-cloud-config.js';

const VALID = [
  '[Global]\nurl = http://127.0.0.1:8080\ncluster-id = demo\nregion = sandbox-1\nrequest-timeout = 5\nretries = 2\nlookup-policy = batched\napi-qps = 20\napi-burst = 40\n[LoadBalancer]\nenabled = true\ningress = both\n[Routes]\nenabled = false\n',
  '; minimal\n[Global]\nurl = "http://localhost:1"\n',
];

describe('bad-input corpus: sandbox cloud config', () => {
  it('returns a config or throws one CloudConfigError naming the file', () => {
    const summary = checkBadInputs(
      { validDocuments: VALID, syntaxCharacters: '[]"=;#\\' },
      { parse: (text, fileName) => readSandboxCloudConfig(text, fileName), isExpectedError: (error) => error instanceof CloudConfigError },
      'sandbox.conf',
      { seed: 1313 },
    );
    process.stdout.write(`bad-input sandbox gcfg: ${summary.cases} cases (${summary.rejected} rejected, ${summary.accepted} accepted), slowest ${summary.slowestMs.toFixed(1)} ms\n`);
    expect(summary.accepted).toBeGreaterThan(0);
    expect(summary.rejected).toBeGreaterThan(0);
  }, 180_000);
});
