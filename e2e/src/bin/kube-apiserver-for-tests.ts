#!/usr/bin/env node
// kube-apiserver-for-tests --port 0 --kubeconfig FILE [--audit-log FILE] [--info-file FILE]
//
// Builds (Go build cache: seconds after the first time) and runs the real kube-apiserver of the
// pinned Kubernetes release with an embedded etcd (e2e/kube-apiserver). Prints one JSON line
// {"server","kubeconfig","infoFile"} once it is ready (nothing secret), writes the admin
// kubeconfig, and stops cleanly on SIGTERM or SIGINT.
import { spawn } from 'node:child_process';
import { kubeApiServerBinary } from '../harness/real-kube-api-server.js';

const built = await kubeApiServerBinary();
if (built.kind === 'unavailable') {
  console.error(`kube-apiserver-for-tests: ${built.reason}`);
  process.exit(1);
}
const child = spawn(built.path, process.argv.slice(2), { stdio: 'inherit' });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGTERM' || signal === 'SIGINT' ? 0 : 1)));
