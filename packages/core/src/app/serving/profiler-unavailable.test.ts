// A Node.js without the inspector (built --without-inspector) cannot serve --profiling: the
// start-up fails with one line saying so, rather than serving nothing silently.
import { describe, expect, it, vi } from 'vitest';

vi.mock('node:inspector/promises', () => {
  throw Object.assign(new Error('Inspector is not available'), { code: 'ERR_INSPECTOR_NOT_AVAILABLE' });
});

describe('startProfiler without the inspector', () => {
  it('refuses with a start-up line naming --profiling', async () => {
    const { startProfiler, ProfilingUnavailableError } = await import('./profiler.js');
    const failure = await startProfiler().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProfilingUnavailableError);
    // vitest wraps the mock factory's error in its own message; the reason is in parentheses.
    expect((failure as Error).message).toMatch(/^--profiling: this Node\.js cannot profile itself \(.+\); start with --profiling=false$/);
    expect((failure as Error).message).not.toContain('\n');
  });
});
