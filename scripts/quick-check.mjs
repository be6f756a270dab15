#!/usr/bin/env node
// The quick check .ci/run makes on the machine's own Node (20.19+) before the full suite runs on
// the images' Node: install + build, the core unit tests, and the demo up to its "ready:" line,
// then SIGINT to the demo's node process, after which `pnpm demo` must exit 0. Each step has a
// time limit; the first failure ends the check with one line naming the step (exit 1).
//
//   node scripts/quick-check.mjs
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pnpmVersion = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')).packageManager.replace(/^pnpm@/, '');
const pnpm = ['npx', '-y', `pnpm@${pnpmVersion}`];

/** The steps, in order. `until`: a line that means success, after which the step is interrupted. */
export const QUICK_CHECK_STEPS = [
  { name: 'install', command: [...pnpm, 'install'], timeoutSeconds: 600 },
  { name: 'build', command: [...pnpm, 'build'], timeoutSeconds: 900 },
  { name: 'core unit tests', command: ['npx', 'vitest', 'run', 'packages/core'], timeoutSeconds: 900 },
  { name: 'demo start', command: [...pnpm, 'demo'], timeoutSeconds: 300, until: /^ready:/, interrupt: 'sandbox-demo/dist/demo.js', stopWithin: 60 },
];

/** The processes below `pid` (from /proc), with their command lines. */
export function descendantsOf(pid) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent pid is the 2nd field after the parenthesised command name.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), parent);
    } catch {
      // gone meanwhile
    }
  }
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const [child, parent] of parents) {
      if (parent !== current) continue;
      queue.push(child);
      let commandLine = '';
      try {
        commandLine = readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        // gone meanwhile
      }
      found.push({ pid: child, commandLine });
    }
  }
  return found;
}

/**
 * Runs one step; resolves with undefined when it passed, else why not (one line).
 * @param {{ name: string, command: string[], timeoutSeconds: number, until?: RegExp, interrupt?: string, stopWithin?: number }} step
 */
export function runStep(step, { cwd = repositoryRoot, output = process.stdout } = {}) {
  return new Promise((resolvePromise) => {
    // Its own process group: the interrupt reaches pnpm, turbo and node as Ctrl-C in a terminal does.
    const child = spawn(step.command[0], step.command.slice(1), { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let sawLine = false;
    let settled = false;
    let pending = '';
    const finish = (problem) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(stopDeadline);
      resolvePromise(problem);
    };
    const signalGroup = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    let stopDeadline;
    const deadline = setTimeout(() => {
      signalGroup('SIGKILL');
      finish(`${step.name}: no ${step.until ? `line matching ${step.until} ` : 'exit '}within ${step.timeoutSeconds} s (${step.command.join(' ')})`);
    }, step.timeoutSeconds * 1000);
    const onData = (chunk) => {
      output.write(chunk);
      if (step.until === undefined || sawLine) return;
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      if (lines.some((line) => step.until.test(line))) {
        sawLine = true;
        // SIGINT to the process that printed the line (pnpm and npx above it would die of the
        // signal themselves); to the whole group when it cannot be told apart.
        const targets = step.interrupt === undefined ? [] : descendantsOf(child.pid).filter((process_) => /(^|\/)node$/.test(process_.commandLine.split(' ')[0] ?? '') && process_.commandLine.includes(step.interrupt));
        if (targets.length === 0) signalGroup('SIGINT');
        for (const target of targets) process.kill(target.pid, 'SIGINT');
        stopDeadline = setTimeout(() => {
          signalGroup('SIGKILL');
          finish(`${step.name}: still running ${step.stopWithin} s after SIGINT (${step.command.join(' ')})`);
        }, (step.stopWithin ?? 60) * 1000);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => output.write(chunk));
    child.on('error', (error) => finish(`${step.name}: cannot run ${step.command[0]}: ${error.message}`));
    child.on('close', (code, signal) => {
      if (step.until !== undefined && !sawLine) finish(`${step.name}: ended (${signal ?? `exit ${code}`}) before a line matching ${step.until} (${step.command.join(' ')})`);
      else if (code !== 0) finish(`${step.name}: ${signal ? `killed by ${signal}` : `exit ${code}`}${step.until ? ' after SIGINT' : ''} (${step.command.join(' ')})`);
      else finish(undefined);
    });
  });
}

async function main() {
  process.stdout.write(`quick check on Node ${process.version}\n`);
  for (const step of QUICK_CHECK_STEPS) {
    const started = Date.now();
    process.stdout.write(`\n== quick check: ${step.name}: ${step.command.join(' ')}\n`);
    const problem = await runStep(step);
    if (problem !== undefined) {
      process.stderr.write(`quick check failed: ${problem}\n`);
      return 1;
    }
    process.stdout.write(`== quick check: ${step.name} passed in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  }
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main();
}
