import { parseCommandLine } from '@ccm/core/app';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { vsphereControllerManagerExtensions } from './vsphere-controller-manager-extensions.js';

function parsed(argv: string[], extensions: ReturnType<typeof vsphereControllerManagerExtensions>) {
  const result = parseCommandLine(argv, { additionalFlags: extensions.settings.additionalFlags });
  if (result.kind !== 'run') throw new Error(result.kind);
  return result;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the vSphere bin restarts when its cloud config changes (upstream initializeWatch)', () => {
  let directory: string | undefined;
  afterEach(() => {
    if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
    directory = undefined;
  });

  it('stops the command (exit 255 as upstream klog.Fatalf) and logs one line naming the file', async () => {
    directory = mkdtempSync(join(tmpdir(), 'vsphere-config-watch-'));
    const path = join(directory, 'vsphere.conf');
    writeFileSync(path, 'global:\n  port: 443\n');
    let stderr = '';
    const extensions = vsphereControllerManagerExtensions({ stderr: { write: (text: string) => ((stderr += text), true) } });
    const { flags, options } = parsed([`--cloud-config=${path}`, '--node-labels=a=b'], extensions);
    await extensions.settings.onFlagsParsed(flags, options);
    expect(extensions.settings.signal.aborted).toBe(false);
    expect(extensions.exitCode(0)).toBe(0);

    writeFileSync(path, 'global:\n  port: 8443\n');
    await until(() => extensions.settings.signal.aborted, 'the restart request');
    expect(extensions.exitCode(0)).toBe(255);
    expect(stderr.split('\n').filter((line) => line.includes(`config map ${path} has been updated, restarting pod`))).toHaveLength(1);
    writeFileSync(path, 'global:\n  port: 9443\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stderr.split('\n').filter((line) => line.includes('has been updated'))).toHaveLength(1);
    extensions.close();
  });

  it('watches nothing without --cloud-config, or when the file does not exist (reading it reports that)', async () => {
    const extensions = vsphereControllerManagerExtensions({ stderr: { write: () => true } });
    const { flags, options } = parsed([], extensions);
    await extensions.settings.onFlagsParsed(flags, options);
    const missing = vsphereControllerManagerExtensions({ stderr: { write: () => true } });
    const second = parsed(['--cloud-config=/nonexistent/vsphere.conf'], missing);
    await missing.settings.onFlagsParsed(second.flags, second.options);
    expect(extensions.settings.signal.aborted).toBe(false);
    expect(missing.settings.signal.aborted).toBe(false);
    expect(missing.exitCode(1)).toBe(1);
  });
});
