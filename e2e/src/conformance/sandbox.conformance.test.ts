// The sandbox conformance suite on the API server CCM_KUBE_API / CI select (the real
// kube-apiserver under CI, with the CCM under its own ServiceAccount and the manifests' RBAC).
// On the real server every request of the CCM and the harness is recorded, then replayed against
// @ccm/kube-emulator: the emulator must answer as the real server did.
import { sandboxDriver } from '@ccm/cloud-provider-sandbox/conformance';
import { selectKubeApi } from '../harness/kube-api-selection.js';
import { describeConformance } from './conformance-suite.js';
import { describeEmulatorReplay, GroupRecordings } from './emulator-replay.js';

const recordings = new GroupRecordings();
await describeConformance(sandboxDriver, { recordRequests: recordings.add });
const selection = await selectKubeApi();
if (selection.kind !== 'unavailable') describeEmulatorReplay(recordings, selection.kind === 'real');
