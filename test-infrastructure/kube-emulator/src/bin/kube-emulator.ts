#!/usr/bin/env node
import { runCli } from './run-cli.js';

const result = await runCli(process.argv.slice(2), {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
}).catch((error: unknown) => {
  process.stderr.write(`kube-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  return 1;
});

if (typeof result === 'number') {
  process.exitCode = result;
} else {
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    result.stop().then(
      () => {
        process.stdout.write(`kube-emulator stopped (${signal})\n`);
        process.exit(0);
      },
      (error: unknown) => {
        process.stderr.write(`kube-emulator: error while stopping: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
