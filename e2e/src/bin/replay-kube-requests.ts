#!/usr/bin/env node
// replay-kube-requests FILE: replays a recording of the sandbox suite (CCM_REPLAY_DUMP=FILE when
// running it on the real kube-apiserver) against fresh @ccm/kube-emulator instances, one per
// scenario group, and prints every difference. For working on the emulator.
import { readFileSync } from 'node:fs';
import { EmulatorBackend } from '../harness/kube-api-backend.js';
import type { RecordedKubeRequest } from '../harness/kube-api-proxy.js';
import { replayRequests } from '../harness/kube-request-replay.js';

const file = process.argv[2];
if (file === undefined) {
  console.error('usage: replay-kube-requests FILE');
  process.exit(2);
}
const groups = JSON.parse(readFileSync(file, 'utf8')) as RecordedKubeRequest[][];
let count = 0;
for (const [index, requests] of groups.entries()) {
  const emulator = await EmulatorBackend.start();
  try {
    for (const difference of await replayRequests(emulator.testClientUrl, requests)) {
      count += 1;
      console.log(`group ${index + 1} #${difference.sequence} ${difference.client} ${difference.request}: ${difference.difference}`);
    }
  } finally {
    await emulator.close();
  }
}
console.log(`${count} differences`);
process.exit(count === 0 ? 0 : 1);
