/**
 * Finds the Python that has Microsoft's pinned management SDKs (schema/requirements.txt), installed
 * by `.ci/install-prerequisites` (section azure-schema) into a virtualenv. Tests that need it fail
 * under CI=true when it is missing and skip loudly otherwise.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

export const PACKAGE_DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SCHEMA_DIRECTORY = join(PACKAGE_DIRECTORY, 'schema');
/** Where .ci/install-prerequisites puts the virtualenv (override: AZURE_SCHEMA_PYTHON=/path/to/python). */
export const DEFAULT_VIRTUALENV = '/opt/ccm/azure-schema-venv';

export const INSTALL_HINT =
  `run \`bash .ci/install-prerequisites\` (section azure-schema: a virtualenv at ${DEFAULT_VIRTUALENV} with ` +
  '`pip install -r test-infrastructure/azure-simulator/schema/requirements.txt`), or point AZURE_SCHEMA_PYTHON at a python that has those pinned packages';

/** `name==version` pins of schema/requirements.txt. */
export function pinnedPackages(): Map<string, string> {
  const pins = new Map<string, string>();
  for (const line of readFileSync(join(SCHEMA_DIRECTORY, 'requirements.txt'), 'utf8').split('\n')) {
    const match = /^([A-Za-z0-9_.-]+)==([^\s#]+)/.exec(line.trim());
    if (match?.[1] && match[2]) pins.set(match[1], match[2]);
  }
  return pins;
}

export function pythonCandidate(): string {
  return process.env['AZURE_SCHEMA_PYTHON'] ?? join(DEFAULT_VIRTUALENV, 'bin', 'python');
}

/** Why the pinned Python SDKs cannot be used, or undefined when they can. */
export function unavailableReason(): string | undefined {
  const python = pythonCandidate();
  if (!existsSync(python)) return `no Python with the pinned Azure SDKs at ${python}`;
  const pins = pinnedPackages();
  const probe = spawnSync(python, ['-c', `import importlib.metadata as m, json; print(json.dumps({n: m.version(n) for n in ${JSON.stringify([...pins.keys()])}}))`], { encoding: 'utf8', timeout: 30_000 });
  if (probe.status !== 0) return `${python} cannot report the pinned Azure SDK versions: ${probe.stderr.trim().split('\n').pop() ?? ''}`;
  const versions = JSON.parse(probe.stdout) as Record<string, string>;
  const wrong = [...pins].filter(([name, version]) => versions[name] !== version).map(([name, version]) => `${name} ${versions[name] ?? 'missing'} (want ${version})`);
  return wrong.length > 0 ? `${python} has the wrong Azure SDK versions: ${wrong.join(', ')}` : undefined;
}

/**
 * Runs a script from schema/ with the pinned Python (asynchronously: the simulator it talks to
 * runs in this process); rejects with its stderr on failure.
 */
export function runPythonScript(script: string, args: readonly string[], options: { input?: string; timeoutMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(pythonCandidate(), [join(SCHEMA_DIRECTORY, script), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGTERM'), options.timeoutMs ?? 120_000);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(stdout).toString('utf8'));
      else reject(new Error(`${script} exited ${String(code ?? signal)}: ${Buffer.concat(stderr).toString('utf8')}`));
    });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * `describe` for suites that need the pinned Python SDKs: under CI=true a missing Python fails the
 * suite; elsewhere the suite is skipped with a banner naming the reason and the install hint.
 */
export function describeWithPythonAzureSdk(name: string, body: () => void): void {
  const reason = unavailableReason();
  if (reason === undefined) {
    describe(name, body);
    return;
  }
  if (process.env['CI'] === 'true') {
    describe(name, () => {
      it('has the pinned Python Azure SDKs', () => {
        throw new Error(`CI=true but ${reason}. To install: ${INSTALL_HINT}`);
      });
    });
    return;
  }
  const bar = '='.repeat(100);
  console.warn(`${bar}\nSKIPPING "${name}": ${reason}\nTo run it: ${INSTALL_HINT}\n(Under CI=true this is a failure.)\n${bar}`);
  describe.skip(name, body);
}
