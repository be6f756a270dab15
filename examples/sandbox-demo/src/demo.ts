#!/usr/bin/env node
// The sandbox demo: an API emulator, the sandbox cloud and the sandbox CCM (as a separate
// process), three kubelet-style nodes and a LoadBalancer Service. See DEMO_USAGE.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startKubeEmulator } from '@ccm/kube-emulator';
import { TAINT_UNINITIALIZED } from '@ccm/core/api';
import { defaultLoadBalancerName } from '@ccm/core/provider';
import { makeNode, makeService, startSandboxCloud, type SandboxInstance } from '@ccm/testing';
import type { V1Node } from '@kubernetes/client-node';
import { startCcmProcess, type CcmProcess } from './ccm-process.js';
import { DEMO_USAGE, DemoArgumentError, parseDemoArguments, type DemoArguments } from './demo-arguments.js';
import { DemoCluster } from './demo-cluster.js';
import { describeDemoProgress, type DemoObservation } from './demo-progress.js';

const CLUSTER_ID = 'sandbox-demo';
const CLUSTER_CIDR = '10.244.0.0/16';
const NODE_NAMES = ['demo-node-1', 'demo-node-2', 'demo-node-3'];
const SERVICE = { namespace: 'default', name: 'demo-web' };

const say = (line: string): void => void process.stdout.write(`${line}\n`);

/** Kubelet-style registration: uninitialized taint, podCIDR, kubelet-detected addresses. */
/** The built bin of @ccm/cloud-provider-sandbox, the CCM the demo runs as a child process (from the package's "bin"). */
function sandboxControllerManagerPath(): string {
  const manifestPath = createRequire(import.meta.url).resolve('@ccm/cloud-provider-sandbox/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: Record<string, string> };
  const bin = manifest.bin['sandbox-cloud-controller-manager'];
  if (bin === undefined) throw new Error(`${manifestPath} has no bin "sandbox-cloud-controller-manager"`);
  return join(dirname(manifestPath), bin);
}

function kubeletNode(instance: SandboxInstance, index: number): V1Node {
  const internalIp = instance.addresses.find((address) => address.type === 'InternalIP')?.address ?? '';
  return makeNode(instance.name, {
    uninitialized: true,
    // The second node's kubelet ran with --node-ip: the CCM must keep that address first.
    ...(index === 1 ? { providedNodeIp: internalIp } : {}),
    // The third node's kubelet is not ready yet (its CNI is still starting).
    ready: index !== 2,
    podCidrs: [`10.244.${index + 1}.0/24`],
    addresses: [
      { type: 'InternalIP', address: internalIp },
      { type: 'Hostname', address: instance.hostname },
    ],
    creationTimestamp: new Date(),
  });
}

async function run(options: DemoArguments): Promise<number> {
  const directory = await mkdtemp(join(tmpdir(), 'ccm-sandbox-demo-'));
  const cleanups: Array<() => Promise<unknown>> = [];
  let ccm: CcmProcess | undefined;
  let stopping = false;
  let ccmFailed = false;
  let keepDirectory = false;
  const stopSignal = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopSignal.signal.aborted) return;
    say(`\n${signal}: stopping`);
    stopSignal.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    const emulator = await startKubeEmulator({ host: '127.0.0.1', port: 0 });
    cleanups.push(() => emulator.close());
    const kubeconfigPath = join(directory, 'kubeconfig');
    await emulator.writeKubeconfig(kubeconfigPath);
    say(`kube API emulator   ${emulator.url}`);

    const cloud = await startSandboxCloud({ host: '127.0.0.1', port: 0 });
    cleanups.push(() => cloud.close());
    const cloudConfigPath = join(directory, 'cloud.conf');
    await writeFile(cloudConfigPath, `[Global]\nurl = ${cloud.url}\ncluster-id = ${CLUSTER_ID}\n`);
    say(`sandbox cloud       ${cloud.url}`);

    const mainPath = sandboxControllerManagerPath();
    const started = startCcmProcess({
      mainPath,
      logPath: join(directory, 'ccm.log'),
      args: [
        '--cloud-provider=sandbox',
        `--cloud-config=${cloudConfigPath}`,
        `--kubeconfig=${kubeconfigPath}`,
        '--leader-elect=true',
        '--secure-port=0',
        `--cluster-cidr=${CLUSTER_CIDR}`,
        '--allocate-node-cidrs',
        '--configure-cloud-routes',
        '--v=2',
      ],
      ...(options.verbose ? { echo: (line: string) => say(`  [ccm] ${line}`) } : {}),
    });
    ccm = started;
    say(`cloud-controller-manager pid ${started.pid ?? '?'} (log: ${started.logPath})`);
    void started.exited.then((how) => {
      if (!stopping) {
        ccmFailed = true;
        say(`the cloud-controller-manager exited unexpectedly (${how})`);
        stopSignal.abort();
      }
    });

    const cluster = new DemoCluster(emulator.kubeconfigYaml());
    const instances: SandboxInstance[] = [];
    for (const name of NODE_NAMES) instances.push(await cloud.createInstance({ name }));
    say(`created ${instances.length} instances in the cloud: ${instances.map((instance) => `${instance.name}=${instance.id}`).join(' ')}`);
    for (const [index, instance] of instances.entries()) await cluster.registerNode(kubeletNode(instance, index));
    say(`registered ${instances.length} nodes, tainted ${TAINT_UNINITIALIZED}`);
    const service = makeService(SERVICE.name, { namespace: SERVICE.namespace, ports: [{ name: 'http', port: 80, targetPort: 8080 }] });
    await cluster.createService(service);
    say(`created LoadBalancer service ${SERVICE.namespace}/${SERVICE.name}\n`);

    const shown = new Map<string, string>();
    const deadline = Date.now() + options.timeoutSeconds * 1000;
    let ready = false;
    while (!stopSignal.signal.aborted && !ready) {
      const current = await cluster.readService(SERVICE.namespace, SERVICE.name);
      const loadBalancerName = current === undefined ? undefined : defaultLoadBalancerName(current);
      const loadBalancer = (await cloud.listLoadBalancers()).find((candidate) => candidate.name === loadBalancerName);
      const observation: DemoObservation = {
        nodes: await cluster.listNodes(),
        service: current,
        routes: (await cloud.listRoutes()).map((route) => ({ destinationCidr: route.destinationCidr, targetNodeName: route.targetInstanceName, blackhole: route.blackhole })),
        loadBalancerBackends: loadBalancer?.backendInstanceIds.length,
      };
      const progress = describeDemoProgress(observation, NODE_NAMES.length);
      for (const [key, line] of progress.lines) {
        if (shown.get(key) !== line) say(line);
        shown.set(key, line);
      }
      ready = progress.ready;
      if (!ready) {
        if (Date.now() > deadline) {
          say(`\nnot ready after ${options.timeoutSeconds} s; last lines of the CCM log (${started.logPath}):`);
          say(await started.logTail());
          keepDirectory = true;
          return 1;
        }
        await sleep(500, undefined, { signal: stopSignal.signal }).catch(() => undefined);
      }
    }
    if (!ready) {
      // Stopped before ready: by a signal (fine) or because the CCM died (not fine).
      if (!ccmFailed) return 0;
      keepDirectory = true;
      say(await started.logTail());
      return 1;
    }

    say('\nready: every node is initialized, the service has its ingress and the routes exist.\n');
    say(`kubeconfig: ${kubeconfigPath}`);
    say(`  kubectl --kubeconfig ${kubeconfigPath} get nodes -o wide`);
    say(`  kubectl --kubeconfig ${kubeconfigPath} get nodes -o custom-columns=NAME:.metadata.name,PROVIDER-ID:.spec.providerID,ZONE:.metadata.labels.topology\\.kubernetes\\.io/zone`);
    say(`  kubectl --kubeconfig ${kubeconfigPath} get service ${SERVICE.name} -o wide`);
    say(`  kubectl --kubeconfig ${kubeconfigPath} get events -A`);
    say(`  curl -s ${cloud.url}/admin/state          # the cloud: instances, load balancers, routes`);
    say(`  curl -s -X POST ${cloud.url}/admin/instances/${instances[2]?.id ?? ''}:stop   # then watch the shutdown taint`);
    say(`CCM log: ${started.logPath}`);
    if (options.exitWhenReady) return 0;
    say('\nrunning; press Ctrl-C to stop');
    await new Promise<void>((resolve) => stopSignal.signal.addEventListener('abort', () => resolve(), { once: true }));
    return ccmFailed ? 1 : 0;
  } finally {
    stopping = true;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (ccm !== undefined) {
      const how = await ccm.stop();
      say(`cloud-controller-manager stopped (${how})`);
    }
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    if (!keepDirectory) await rm(directory, { recursive: true, force: true });
    else say(`files kept in ${directory}`);
  }
}

async function main(): Promise<number> {
  let options: DemoArguments;
  try {
    options = parseDemoArguments(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof DemoArgumentError)) throw error;
    process.stderr.write(`demo: ${error.message}\n\n${DEMO_USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(DEMO_USAGE);
    return 0;
  }
  return run(options);
}

process.exitCode = await main().catch((error: unknown) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
});
