/** The kube-emulator command: start, print where it listens, stop cleanly on SIGTERM/SIGINT. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKubeEmulator, type KubeEmulator } from '../kube-emulator.js';
import { parseArguments, usage, UsageError, type CliOptions } from './parse-arguments.js';

export interface CliIo {
  stdout(line: string): void;
  stderr(line: string): void;
}

export interface RunningCli {
  emulator: KubeEmulator;
  kubeconfigPath: string;
  stop(): Promise<void>;
}

/** Returns the exit code for a usage problem or --help, or the running emulator. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number | RunningCli> {
  let options: CliOptions;
  try {
    options = parseArguments(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`kube-emulator: ${error.message}`);
      io.stderr('Run kube-emulator --help for usage.');
      return 2;
    }
    throw error;
  }
  if (options.help) {
    io.stdout(usage.trimEnd());
    return 0;
  }
  const emulator = await startKubeEmulator({
    port: options.port,
    host: options.host,
    https: options.https,
    ...(options.watchHistorySize !== undefined ? { watchHistorySize: options.watchHistorySize } : {}),
    ...(options.bookmarkIntervalMs !== undefined ? { bookmarkIntervalMs: options.bookmarkIntervalMs } : {}),
  });
  let temporaryDirectory: string | undefined;
  let kubeconfigPath = options.kubeconfig;
  if (!kubeconfigPath) {
    temporaryDirectory = await mkdtemp(join(tmpdir(), 'kube-emulator-'));
    kubeconfigPath = join(temporaryDirectory, 'kubeconfig');
  }
  await emulator.writeKubeconfig(kubeconfigPath);
  io.stdout(`kube-emulator listening on ${emulator.url}`);
  io.stdout(`kube-emulator kubeconfig written to ${kubeconfigPath}`);
  return {
    emulator,
    kubeconfigPath,
    stop: async () => {
      await emulator.close();
      if (temporaryDirectory) await rm(temporaryDirectory, { recursive: true, force: true });
    },
  };
}
