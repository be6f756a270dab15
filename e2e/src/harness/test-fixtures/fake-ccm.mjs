// A stand-in CCM for the harness self-test: prints its arguments, serves /healthz over HTTPS on
// --secure-port with the test-only certificate, and exits with code 3 after FAKE_CCM_EXIT_AFTER_MS.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';

const flag = (name) => process.argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
const fixture = (name) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');

console.log(`fake-ccm args: ${JSON.stringify(process.argv.slice(2))}`);
const port = Number(flag('secure-port'));
const server = createServer({ cert: fixture('localhost-test-only.crt'), key: fixture('localhost-test-only.key') }, (request, response) => {
  response.writeHead(request.url === '/healthz' ? 200 : 404).end(request.url === '/healthz' ? 'ok' : 'not found');
});
server.listen(port, flag('bind-address') ?? '127.0.0.1', () => console.error(`fake-ccm serving on ${port}`));
process.on('SIGTERM', () => {
  console.log('fake-ccm got SIGTERM');
  server.close(() => process.exit(0));
});
const exitAfter = Number(process.env.FAKE_CCM_EXIT_AFTER_MS ?? '0');
if (exitAfter > 0) setTimeout(() => process.exit(3), exitAfter);
