// The quick check's step runner: a step passes on exit 0, or, with `until`, on the awaited line
// followed by a clean exit after SIGINT; everything else is one line naming the step.
import { describe, expect, it } from 'vitest';
import { QUICK_CHECK_STEPS, runStep } from './quick-check.mjs';

const node = (script: string) => [process.execPath, '-e', script];
const quiet = { write: () => true };
const SERVER = "console.log('starting'); setTimeout(() => console.log('ready: up'), 200); process.on('SIGINT', () => { console.log('bye'); process.exit(EXIT); }); setInterval(() => {}, 1000);";

describe('quick check steps', () => {
  it('checks install, build, the core unit tests and the demo start with the pinned pnpm', () => {
    expect(QUICK_CHECK_STEPS.map((step) => step.name)).toEqual(['install', 'build', 'core unit tests', 'demo start']);
    expect(QUICK_CHECK_STEPS.at(-1)!.command.slice(-1)).toEqual(['demo']);
    expect(QUICK_CHECK_STEPS.at(-1)!.until!.test('ready: every node is initialized')).toBe(true);
  });

  it('passes a command that exits 0 and names a failing one', async () => {
    expect(await runStep({ name: 'ok', command: node('process.exit(0)'), timeoutSeconds: 30 }, { output: quiet })).toBeUndefined();
    expect(await runStep({ name: 'broken', command: node('process.exit(3)'), timeoutSeconds: 30 }, { output: quiet })).toMatch(/^broken: exit 3 \(/);
  });

  it('interrupts after the awaited line and wants exit 0', async () => {
    expect(await runStep({ name: 'demo', command: node(SERVER.replace('EXIT', '0')), timeoutSeconds: 30, until: /^ready:/, stopWithin: 20 }, { output: quiet })).toBeUndefined();
    expect(await runStep({ name: 'demo', command: node(SERVER.replace('EXIT', '1')), timeoutSeconds: 30, until: /^ready:/, stopWithin: 20 }, { output: quiet })).toMatch(/^demo: exit 1 after SIGINT/);
  });

  it('fails a command that ends before the line, or never prints it in time', async () => {
    expect(await runStep({ name: 'demo', command: node("console.log('no'); process.exit(0)"), timeoutSeconds: 30, until: /^ready:/ }, { output: quiet })).toMatch(/^demo: ended \(exit 0\) before a line matching/);
    expect(await runStep({ name: 'demo', command: node('setInterval(() => {}, 1000)'), timeoutSeconds: 1, until: /^ready:/ }, { output: quiet })).toMatch(/^demo: no line matching \/\^ready:\/ within 1 s/);
  });
});
