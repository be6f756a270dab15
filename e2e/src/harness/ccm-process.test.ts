import { describe, expect, it } from 'vitest';
import { SpawnedProcess } from './ccm-process.js';

function nodeScript(source: string, label = 'script'): SpawnedProcess {
  return SpawnedProcess.start({ label, spec: { command: process.execPath, args: ['-e', source, '--'] }, extraArgs: ['--flag=value'] });
}

describe('SpawnedProcess', () => {
  it('captures stdout and stderr and passes the extra arguments after the spec ones', async () => {
    const child = nodeScript("console.log('args ' + JSON.stringify(process.argv.slice(1))); console.error('to stderr');");
    const exit = await child.waitForExit();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(child.output()).toContain('args ["--flag=value"]');
    expect(child.output()).toContain('to stderr');
    expect(child.isRunning()).toBe(false);
    expect(child.describeState()).toMatch(/^script \(pid \d+\) exited \(code 0, signal null\)$/);
  });

  it('passes the spec environment', async () => {
    const child = SpawnedProcess.start({
      label: 'env',
      spec: { command: process.execPath, args: ['-e', 'console.log(process.env.E2E_PROBE)'], env: { E2E_PROBE: 'probe-value' } },
    });
    await child.waitForExit();
    expect(child.output()).toContain('probe-value');
  });

  it('stops a process with SIGTERM', async () => {
    const child = nodeScript("console.log('up'); setInterval(() => {}, 1000);");
    await waitForOutput(child, 'up');
    const exit = await child.stop(5_000);
    expect(exit.signal).toBe('SIGTERM');
  });

  it('falls back to SIGKILL when SIGTERM is ignored', async () => {
    const child = nodeScript("process.on('SIGTERM', () => console.log('ignoring SIGTERM')); console.log('up'); setInterval(() => {}, 1000);");
    await waitForOutput(child, 'up');
    const exit = await child.stop(300);
    expect(exit.signal).toBe('SIGKILL');
    expect(child.output()).toContain('ignoring SIGTERM');
    expect(child.output()).toContain('[harness] script ignored SIGTERM for 300 ms; sending SIGKILL');
  });

  it('reports a command that cannot start', async () => {
    const child = SpawnedProcess.start({ label: 'missing', spec: { command: '/nonexistent/ccm-binary', args: [] } });
    const exit = await child.waitForExit();
    expect(exit.code).not.toBe(0);
    expect(child.output()).toContain('[harness] could not start missing');
    expect(child.report()).toContain('--- missing (pid ?) exited');
  });
});

async function waitForOutput(child: SpawnedProcess, fragment: string): Promise<void> {
  for (let attempt = 0; attempt < 100 && !child.outputIncludes(fragment); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(child.output()).toContain(fragment);
}
