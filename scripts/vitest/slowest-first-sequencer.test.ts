import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { orderSlowestFirst, parseTestFileSeconds, TEST_FILE_SECONDS_PATH } from './slowest-first-sequencer.js';

describe('orderSlowestFirst', () => {
  const cases: Array<{ name: string; files: Array<{ file: string; group: number; seconds: number }>; order: string[] }> = [
    { name: 'nothing', files: [], order: [] },
    {
      name: 'slowest first within a group',
      files: [
        { file: 'a', group: 0, seconds: 1 },
        { file: 'b', group: 0, seconds: 200 },
        { file: 'c', group: 0, seconds: 50 },
      ],
      order: ['b', 'c', 'a'],
    },
    {
      name: 'own-process files before shared ones, however slow the shared ones are',
      files: [
        { file: 'shared-slow', group: 1, seconds: 500 },
        { file: 'isolated-fast', group: 0, seconds: 0.1 },
        { file: 'isolated-slow', group: 0, seconds: 90 },
      ],
      order: ['isolated-slow', 'isolated-fast', 'shared-slow'],
    },
    {
      name: 'unknown files (0 s) keep the order they came in, after the known slow ones',
      files: [
        { file: 'u1', group: 0, seconds: 0 },
        { file: 'slow', group: 0, seconds: 3 },
        { file: 'u2', group: 0, seconds: 0 },
        { file: 'u3', group: 0, seconds: 0 },
      ],
      order: ['slow', 'u1', 'u2', 'u3'],
    },
  ];
  for (const { name, files, order } of cases) {
    it(name, () => {
      expect(orderSlowestFirst(files)).toEqual(order);
    });
  }
});

describe('parseTestFileSeconds', () => {
  it('reads path -> seconds', () => {
    expect([...parseTestFileSeconds('{"e2e/a.test.ts": 12.5, "b.test.ts": 0}', 'f.json')]).toEqual([
      ['e2e/a.test.ts', 12.5],
      ['b.test.ts', 0],
    ]);
  });
  const bad: Array<[string, string]> = [
    ['{', 'f.json: not JSON'],
    ['[]', 'f.json: expected an object of "path": seconds'],
    ['{"a.test.ts": "12"}', 'f.json: "a.test.ts" must be a non-negative number of seconds, got "12"'],
    ['{"a.test.ts": -1}', 'f.json: "a.test.ts" must be a non-negative number of seconds, got -1'],
  ];
  for (const [text, message] of bad) {
    it(`refuses ${text} naming the file`, () => {
      expect(() => parseTestFileSeconds(text, 'f.json')).toThrow(message);
    });
  }

  it('the checked-in list parses and names test files that exist', () => {
    const root = join(fileURLToPath(TEST_FILE_SECONDS_PATH), '..', '..', '..');
    const seconds = parseTestFileSeconds(readFileSync(TEST_FILE_SECONDS_PATH, 'utf8'), 'test-file-seconds.json');
    expect(seconds.size).toBeGreaterThan(10);
    const missing = [...seconds.keys()].filter((path) => !path.endsWith('.test.ts') || !existsSync(join(root, path)));
    expect(missing, 'entries of test-file-seconds.json without a test file: refresh it (record-test-file-seconds.mjs)').toEqual([]);
  });
});
