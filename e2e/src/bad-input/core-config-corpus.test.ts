/**
 * The bad-input corpus of the formats core parses: gcfg (parser and schema), the leader
 * migration configuration (YAML or JSON) and kubeconfig (also what --authentication-kubeconfig
 * and --authorization-kubeconfig are read with). Seeded; `BAD_INPUT_RUNS` cases per format
 * (default 2000). Every case returns or throws the format's typed error naming the file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CloudConfigError, defineGcfgSchema, parseGcfg } from '@ccm/core/config';
import { LeaderMigrationConfigError, readLeaderMigrationConfiguration } from '@ccm/core/app';
import { KubeConfigError, loadKubeConfig } from '@ccm/core/kube';
import { checkBadInputs, YAML_ALIAS_BOMB, type BadInputRunSummary } from '@ccm/testing/bad-input';

export const CORE_CORPUS_SEED = 1313;
// Wall time: a few seconds each on a quiet machine, much more on a loaded one.
const TEST_TIMEOUT_MS = 180_000;

const report = (format: string, summary: BadInputRunSummary): void => {
  process.stdout.write(`bad-input ${format}: ${summary.cases} cases (${summary.rejected} rejected, ${summary.accepted} accepted), slowest ${summary.slowestMs.toFixed(1)} ms, ${JSON.stringify(summary.byKind)}\n`);
};

const GCFG_DOCUMENTS = [
  '[Global]\nzone = us-east-1a\nretries = 3\ninsecure = true\nname = "quoted \\"value\\"" ; comment\n',
  '; header comment\n[Global]\nretries = 0x10\ntags = a\ntags = b\n[Instance "one"]\naddress = 10.0.0.1\n[Instance "two"]\naddress = 10.0.0.2 # comment\n',
  '[global]\nZONE=a\\\n   continued\ninsecure\n',
];

const GCFG_SCHEMA = defineGcfgSchema({
  global: {
    name: 'Global',
    keys: {
      zone: { type: 'string', name: 'zone', description: 'zone' },
      retries: { type: 'int', name: 'retries', description: 'retries' },
      insecure: { type: 'bool', name: 'insecure', description: 'insecure' },
      name: { type: 'string', name: 'name', description: 'name', allowed: ['a', 'quoted "value"'] },
      tags: { type: 'list', name: 'tags', description: 'tags' },
      password: { type: 'string', name: 'password', description: 'password', secret: true },
    },
  },
  instance: { name: 'Instance', subsections: true, keys: { address: { type: 'string', name: 'address', description: 'address', required: true } } },
});

describe('bad-input corpus: core formats', () => {
  const directory = mkdtempSync(join(tmpdir(), 'ccm-bad-input-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it(
    'gcfg parser: never throws, every problem names the file and a line of it',
    () => {
      const summary = checkBadInputs(
        { validDocuments: GCFG_DOCUMENTS, syntaxCharacters: '[]"=;#\\' },
        {
          parse(text, fileName) {
            const document = parseGcfg(text, fileName);
            const lineCount = text.split('\n').length;
            for (const problem of document.problems) {
              if (problem.fileName !== fileName || problem.line === undefined || problem.line < 1 || problem.line > lineCount) {
                throw new Error(`problem without a valid place: ${JSON.stringify(problem).slice(0, 200)}`);
              }
            }
            if (document.problems.length > 0) throw new CloudConfigError(document.problems);
          },
          isExpectedError: (error) => error instanceof CloudConfigError,
        },
        'cloud.conf',
        { seed: CORE_CORPUS_SEED },
      );
      report('gcfg parser', summary);
      expect(summary.rejected).toBeGreaterThan(0);
      expect(summary.accepted).toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'gcfg schema: returns a config or throws one CloudConfigError naming the file',
    () => {
      const summary = checkBadInputs(
        { validDocuments: GCFG_DOCUMENTS, syntaxCharacters: '[]"=;#\\' },
        { parse: (text, fileName) => GCFG_SCHEMA.parse(text, fileName), isExpectedError: (error) => error instanceof CloudConfigError },
        'schema.conf',
        { seed: CORE_CORPUS_SEED + 1 },
      );
      report('gcfg schema', summary);
      expect(summary.accepted).toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'leader migration configuration: returns it or throws LeaderMigrationConfigError naming the file',
    () => {
      const valid = [
        'apiVersion: controllermanager.config.k8s.io/v1\nkind: LeaderMigrationConfiguration\nleaderName: cloud-provider-extraction-migration\nresourceLock: leases\ncontrollerLeaders:\n  - name: route\n    component: "*"\n  - name: service\n    component: cloud-controller-manager\n',
        '{"apiVersion": "controllermanager.config.k8s.io/v1alpha1", "kind": "LeaderMigrationConfiguration", "leaderName": "x", "controllerLeaders": [{"name": "cloud-node-lifecycle", "component": "*"}]}\n',
      ];
      const summary = checkBadInputs(
        { validDocuments: valid, syntaxCharacters: ':-[]{},"\'&*!#|>', extraDocuments: [YAML_ALIAS_BOMB, `controllerLeaders: *a\n${YAML_ALIAS_BOMB}`] },
        {
          parse: (text, fileName) => readLeaderMigrationConfiguration(fileName, () => text),
          isExpectedError: (error) => error instanceof LeaderMigrationConfigError,
        },
        'leader-migration.yaml',
        { seed: CORE_CORPUS_SEED + 2 },
      );
      report('leader migration', summary);
      expect(summary.accepted).toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'kubeconfig: loads or throws KubeConfigError naming the file',
    () => {
      const valid = [
        'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:6443\n    insecure-skip-tls-verify: true\nusers:\n- name: u\n  user:\n    token: t0k3n\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\n    namespace: kube-system\ncurrent-context: x\n',
        '{"apiVersion":"v1","kind":"Config","clusters":[{"name":"c","cluster":{"server":"http://localhost:8080"}}],"users":[{"name":"u","user":{"username":"a","password":"b"}}],"contexts":[{"name":"x","context":{"cluster":"c","user":"u"}}],"current-context":"x"}\n',
      ];
      let index = 0;
      const summary = checkBadInputs(
        { validDocuments: valid, syntaxCharacters: ':-[]{},"\'&*!#|>', extraDocuments: [YAML_ALIAS_BOMB, `clusters: *g\n${YAML_ALIAS_BOMB}`] },
        {
          parse(text, fileName) {
            const path = join(directory, fileName);
            writeFileSync(path, text);
            index += 1;
            return loadKubeConfig({ kubeconfigPath: path, environment: {} });
          },
          isExpectedError: (error) => error instanceof KubeConfigError,
        },
        'kubeconfig.yaml',
        { seed: CORE_CORPUS_SEED + 3 },
      );
      report('kubeconfig', summary);
      expect(index).toBe(summary.cases);
      expect(summary.accepted).toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );
});
