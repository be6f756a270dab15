import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ephemeralRangeStart, freePorts } from './free-ports.js';

describe('freePorts', () => {
  it('gives distinct ports below the ephemeral range, each free to listen on', async () => {
    const ports = await freePorts(6);
    expect(new Set(ports).size).toBe(6);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(ephemeralRangeStart());
      const server = createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('passes over a port already taken', async () => {
    const [taken] = await freePorts(1);
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(taken, '127.0.0.1', resolve));
    try {
      // The first draw lands on the taken port, the second elsewhere.
      const draws = [(taken! - 20_000 + 0.5) / (ephemeralRangeStart() - 20_000), 0.5];
      const [port] = await freePorts(1, () => draws.shift() ?? Math.random());
      expect(port).not.toBe(taken);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });

  it('reads the ephemeral range start, with 32768 when the file is missing or odd', () => {
    const directory = mkdtempSync(join(tmpdir(), 'ports-'));
    writeFileSync(join(directory, 'range'), '40000\t60999\n');
    writeFileSync(join(directory, 'odd'), 'nonsense\n');
    expect(ephemeralRangeStart(join(directory, 'range'))).toBe(40_000);
    expect(ephemeralRangeStart(join(directory, 'odd'))).toBe(32_768);
    expect(ephemeralRangeStart(join(directory, 'missing'))).toBe(32_768);
  });
});
