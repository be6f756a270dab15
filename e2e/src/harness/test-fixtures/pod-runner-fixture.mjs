// The pod runner's fixture container: reports what it sees of its sandbox as one JSON line,
// serves /healthz on --port, and behaves as --mode says:
//   serve (default)       healthy until SIGTERM, then exits 0
//   crash                 prints one error line and exits 1
//   unhealthy-after=<ms>  /healthz answers 500 after that many milliseconds
//   allocate              allocates memory until the cgroup kills it
import { readFileSync, readdirSync, statfsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { request } from 'node:https';

const option = (name, fallback) => process.argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const port = Number(option('port', '8080'));
const mode = option('mode', 'serve');
const started = Date.now();

function attempt(action) {
  try {
    return action();
  } catch (error) {
    return `error: ${error.code ?? error.message}`;
  }
}

if (mode === 'crash') {
  console.error('fixture: cannot start: --mode=crash asked for it');
  process.exit(1);
}

const status = readFileSync('/proc/self/status', 'utf8');
const field = (name) => new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(status)?.[1]?.trim();
const tokenDirectory = '/var/run/secrets/kubernetes.io/serviceaccount';
const report = {
  uid: process.getuid(),
  gid: process.getgid(),
  groups: process.getgroups(),
  capEff: field('CapEff'),
  capBnd: field('CapBnd'),
  noNewPrivs: field('NoNewPrivs'),
  seccomp: field('Seccomp'),
  argv: process.argv.slice(2),
  env: { KUBERNETES_SERVICE_HOST: process.env.KUBERNETES_SERVICE_HOST, KUBERNETES_SERVICE_PORT: process.env.KUBERNETES_SERVICE_PORT, FIXTURE_IMAGE: process.env.FIXTURE_IMAGE, GREETING: process.env.GREETING, SECRET_WORD: process.env.SECRET_WORD ? 'set' : 'unset' },
  writeRoot: attempt(() => (writeFileSync('/written-by-fixture', 'x'), 'ok')),
  writeTmp: attempt(() => (writeFileSync('/tmp/written-by-fixture', 'x'), 'ok')),
  tmpBytes: attempt(() => { const stats = statfsSync('/tmp'); return stats.blocks * stats.bsize; }),
  config: attempt(() => readFileSync('/etc/config/settings.conf', 'utf8')),
  configWrite: attempt(() => (writeFileSync('/etc/config/settings.conf', 'y'), 'ok')),
  secret: attempt(() => readFileSync('/etc/secret/password', 'utf8')),
  tokenFiles: attempt(() => readdirSync(tokenDirectory).filter((name) => !name.startsWith('..')).sort()),
  namespace: attempt(() => readFileSync(`${tokenDirectory}/namespace`, 'utf8')),
  memoryLimit: attempt(() => readFileSync('/sys/fs/cgroup/memory/memory.limit_in_bytes', 'utf8').trim()),
};

function whoAmI() {
  return new Promise((resolve) => {
    const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    const call = request(
      {
        host: process.env.KUBERNETES_SERVICE_HOST,
        port: process.env.KUBERNETES_SERVICE_PORT,
        path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        method: 'POST',
        ca: readFileSync(`${tokenDirectory}/ca.crt`),
        headers: { authorization: `Bearer ${readFileSync(`${tokenDirectory}/token`, 'utf8')}`, 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk) => (text += chunk));
        response.on('end', () => resolve(attempt(() => JSON.parse(text).status.userInfo.username)));
      },
    );
    call.on('error', (error) => resolve(`error: ${error.message}`));
    call.end(body);
  });
}

report.user = await whoAmI();
console.log(`FIXTURE ${JSON.stringify(report)}`);

if (mode === 'allocate') {
  const kept = [];
  for (;;) {
    kept.push(Buffer.alloc(16 * 1024 * 1024, 1));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const unhealthyAfter = mode.startsWith('unhealthy-after=') ? Number(mode.slice('unhealthy-after='.length)) : Infinity;
const server = createServer((incoming, response) => {
  const healthy = Date.now() - started < unhealthyAfter;
  response.writeHead(healthy ? 200 : 500).end(healthy ? 'ok' : 'unhealthy');
});
server.listen(port, '0.0.0.0', () => console.log(`fixture: serving on ${port}`));
process.once('SIGTERM', () => {
  console.log('fixture: SIGTERM, exiting');
  server.close(() => process.exit(0));
});
