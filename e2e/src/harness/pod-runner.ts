/**
 * The pod runner: a provider's manifests applied to the real kube-apiserver, and the pod of its
 * Deployment run from the built OCI image with bare runc, as a kubelet would run it: args and env,
 * ConfigMap and Secret volumes read from the API server, the projected ServiceAccount token with
 * the in-cluster variables, the securityContext, emptyDirs, the memory limit, liveness and
 * readiness probes, restarts with the kubelet's back-off, and a graceful stop within
 * terminationGracePeriodSeconds. See docs in e2e/README.md ("Images under the pod runner").
 *
 * One deviation, forced by running several hostNetwork pods on one host: each declared
 * containerPort moves to a free host port (`relocatePorts`), flags and probes with it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile, chmod } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { hostname as osHostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify as stringifyYaml } from 'yaml';
import { findFreePort } from './free-port.js';
import { KubeRequestError, type KubeTestClient } from './kube-test-client.js';
import { readOciImage, unpackRootfs, type OciImage } from './oci-image-rootfs.js';
import { POD_DEFAULTS, unsupportedPodFields, type Container, type DeploymentObject, type PodSpec, type Probe } from './pod-spec.js';
import { containerRuntimeConfig, memoryLimitBytes, PodConfigError, relocatePorts, type EnvironmentSources, type PreparedVolume } from './pod-runtime-config.js';
import { projectKeys, writeAtomicVolume } from './pod-volumes.js';
import { initialProbeState, isProbeSuccessStatus, observeProbe, probeTiming, restartBackOffMs, RESTART_BACK_OFF, type ProbeKind, type ProbeState } from './probe-schedule.js';
import { renderOverlay } from './rbac-usage.js';
import { RuncContainer, runcSupportsSeccomp } from './runc-container.js';
import { sleep, waitFor, WaitTimeoutError } from './wait-for.js';

const execFileAsync = promisify(execFile);

/** What the runner needs of the API server (RealKubeApiServer has it). */
export interface PodRunnerApiServer {
  /** `https://127.0.0.1:PORT`. */
  readonly server: string;
  readonly adminKubeconfigPath: string;
  servingCa(): string;
}

/** `kubectl apply --server-side --validate=strict`: an error or a warning from the server fails. */
export async function applyServerSide(adminKubeconfigPath: string, objects: Array<Record<string, unknown>>, fieldManager = 'pod-runner'): Promise<void> {
  const manifest = objects.map((object) => stringifyYaml(object)).join('---\n');
  const child = execFile('kubectl', ['--kubeconfig', adminKubeconfigPath, 'apply', '--server-side', `--field-manager=${fieldManager}`, '--force-conflicts', '--validate=strict', '-f', '-'], {
    maxBuffer: 16 * 1024 * 1024,
  });
  child.stdin!.end(manifest);
  let stderr = '';
  child.stderr!.on('data', (text: Buffer | string) => (stderr += text.toString()));
  const code = await new Promise<number>((resolve) => child.once('exit', (exitCode) => resolve(exitCode ?? 1)));
  if (code !== 0 || /warning/i.test(stderr)) throw new Error(`kubectl apply --server-side --validate=strict: exit ${code}: ${stderr.trim()}`);
}

/** `kubectl kustomize manifests/<overlay>` applied server-side; returns the rendered objects. */
export async function applyOverlayServerSide(api: PodRunnerApiServer, overlay: string): Promise<Array<Record<string, unknown>>> {
  const objects = await renderOverlay(overlay);
  await applyServerSide(api.adminKubeconfigPath, objects);
  return objects;
}

/** The one Deployment among rendered objects. */
export function findDeployment(objects: Array<Record<string, unknown>>): DeploymentObject {
  const deployments = objects.filter((object) => object['kind'] === 'Deployment') as unknown as DeploymentObject[];
  if (deployments.length !== 1) throw new Error(`expected one Deployment in the overlay, found ${deployments.length}`);
  return deployments[0]!;
}

/** Whether the host enforces a memory limit in a container's cgroup (cgroup v1 memory controller, or v2 with memory). */
export async function memoryLimitUnenforceableReason(): Promise<string | undefined> {
  if (existsSync('/sys/fs/cgroup/memory/memory.limit_in_bytes')) return undefined;
  const controllers = await readFile('/sys/fs/cgroup/cgroup.controllers', 'utf8').catch(() => '');
  if (controllers.split(/\s+/).includes('memory')) return undefined;
  return 'no memory cgroup controller is mounted (neither /sys/fs/cgroup/memory nor a cgroup v2 with memory)';
}

export type PodPhase = 'Starting' | 'Running' | 'CrashLoopBackOff' | 'Terminated' | 'CreateContainerError';

export interface ContainerRunRecord {
  id: string;
  startedAt: number;
  exitCode?: number;
  finishedAt?: number;
  /** Killed by the runner because its liveness probe failed. */
  livenessKill: boolean;
  logTail: string;
}

export interface PodStatusReport {
  pod: string;
  phase: PodPhase;
  ready: boolean;
  restartCount: number;
  lastExitCode: number | undefined;
  lastLogLines: string;
  livenessKills: number;
  memoryLimit: { bytes: number; enforced: boolean; reason?: string } | undefined;
  seccomp: boolean;
}

/** A pod that cannot become ready because its container keeps failing. */
export class PodCrashLoopError extends Error {
  override readonly name = 'PodCrashLoopError';
  constructor(readonly report: PodStatusReport) {
    super(describeCrashLoop(report));
  }
}

export function describeCrashLoop(report: PodStatusReport): string {
  return (
    `pod ${report.pod} is in CrashLoopBackOff: restarted ${report.restartCount} time(s), last exit code ${report.lastExitCode ?? '(none)'}; ` +
    `its last log lines:\n${report.lastLogLines || '(no output)'}`
  );
}

export interface RunPodOptions {
  api: PodRunnerApiServer;
  /** Admin client (reads ConfigMaps and Secrets, requests the token). */
  client: KubeTestClient;
  /** The image: an OCI layout folder, or one read already. */
  image: string | OciImage;
  /** The Deployment whose pod template runs (read from the API server when the pod starts). */
  deployment: { namespace: string; name: string };
  /** The pod's name (a Deployment's pods are `<name>-<hash>-<suffix>`); also the hostname fields use. */
  podName: string;
  /** The kubelet's restart back-off (tests of the runner itself may shorten it). */
  backOff?: { initialMs: number; maxMs: number };
  /** The runner's own lines (default: console.info with the pod's name). */
  log?: (line: string) => void;
}

interface PreparedPod {
  spec: PodSpec;
  container: Container;
  portMap: Map<number, number>;
  directory: string;
  /** Host tmpfs mounts of Memory emptyDirs (unmounted on close). */
  tmpfsMounts: string[];
  volumes: Record<string, PreparedVolume>;
  serviceAccountDirectory: string | undefined;
  sources: EnvironmentSources;
  rootfs: string;
  image: OciImage;
  seccomp: boolean;
  memoryLimit: PodStatusReport['memoryLimit'];
}

let podSequence = 0;

/** Memory emptyDirs still mounted: unmounted when the test process exits, whatever happened. */
const liveTmpfsMounts = new Set<string>();
process.once('exit', () => {
  for (const path of liveTmpfsMounts) {
    try {
      execFileSync('umount', ['--lazy', path], { stdio: 'ignore', timeout: 5_000 });
    } catch {
      // Already gone.
    }
  }
});

export class RunningPod {
  private phase: PodPhase = 'Starting';
  private readyValue = false;
  private restarts = 0;
  private livenessKills = 0;
  private current: RuncContainer | undefined;
  private currentRecord: ContainerRunRecord | undefined;
  private readonly history: ContainerRunRecord[] = [];
  private stopping = false;
  private wakeBackOff: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private readonly log: (line: string) => void;
  private readonly token = randomBytes(3).toString('hex');
  private startError: string | undefined;

  private constructor(
    readonly options: RunPodOptions,
    private readonly prepared: PreparedPod,
  ) {
    this.log = options.log ?? ((line) => console.info(`[pod-runner ${options.podName}] ${line}`));
  }

  /** Prepares the pod (image, volumes, token) and starts its container; returns at once. */
  static async start(options: RunPodOptions): Promise<RunningPod> {
    const prepared = await preparePod(options);
    const pod = new RunningPod(options, prepared);
    if (!prepared.seccomp) pod.log('seccomp RuntimeDefault left out: this runc reports no seccomp support (`runc features`)');
    if (prepared.memoryLimit !== undefined && !prepared.memoryLimit.enforced) pod.log(`memory limit ${prepared.memoryLimit.bytes} bytes NOT enforced: ${prepared.memoryLimit.reason}`);
    pod.loop = pod.runLoop().catch((error: unknown) => {
      // As the kubelet's CreateContainerError: reported, never retried in a tight loop.
      pod.startError = error instanceof Error ? error.message : String(error);
      pod.phase = 'CreateContainerError';
      pod.log(`cannot create the container: ${pod.startError}`);
    });
    return pod;
  }

  get name(): string {
    return this.options.podName;
  }

  /** The container as the runner runs it (ports relocated). */
  get container(): Container {
    return this.prepared.container;
  }

  get spec(): PodSpec {
    return this.prepared.spec;
  }

  /** Host port of a declared containerPort (its number in the manifest). */
  hostPort(containerPort: number): number {
    return this.prepared.portMap.get(containerPort) ?? containerPort;
  }

  get ready(): boolean {
    return this.readyValue;
  }

  get restartCount(): number {
    return this.restarts;
  }

  /** The running container (undefined between restarts). */
  get currentContainer(): RuncContainer | undefined {
    return this.current;
  }

  /** Every container this pod ran, oldest first. */
  containers(): readonly ContainerRunRecord[] {
    return [...this.history, ...(this.currentRecord === undefined ? [] : [{ ...this.currentRecord, logTail: this.current?.output.tail(40) ?? '' }])];
  }

  /** The current (or last) container's output. */
  logs(): string {
    return this.current?.output.text() ?? this.history.at(-1)?.logTail ?? '';
  }

  status(): PodStatusReport {
    const last = this.history.at(-1);
    return {
      pod: this.name,
      phase: this.phase,
      ready: this.readyValue,
      restartCount: this.restarts,
      lastExitCode: last?.exitCode,
      lastLogLines: this.current?.output.tail(20) || last?.logTail.split('\n').slice(-20).join('\n') || this.startError || '',
      livenessKills: this.livenessKills,
      memoryLimit: this.prepared.memoryLimit,
      seccomp: this.prepared.seccomp,
    };
  }

  /** Waits until the readiness probe passes; fails at once, with the crash loop described, when the container keeps failing. */
  async waitUntilReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.readyValue) return;
      if (this.phase === 'CrashLoopBackOff') throw new PodCrashLoopError(this.status());
      if (this.phase === 'CreateContainerError') throw new Error(`pod ${this.name}: cannot create the container: ${this.startError}`);
      if (Date.now() > deadline) {
        throw new WaitTimeoutError(
          `pod ${this.name} not ready within ${timeoutMs / 1000}s (${this.phase}, ${this.restarts} restart(s)); its last log lines:\n${this.status().lastLogLines || '(no output)'}`,
        );
      }
      await sleep(200);
    }
  }

  /** Waits until the pod is in CrashLoopBackOff (its container failed again after a restart) and returns the report. */
  async waitForCrashLoop(timeoutMs: number): Promise<PodStatusReport> {
    return waitFor(`pod ${this.name} to be in CrashLoopBackOff`, () => (this.phase === 'CrashLoopBackOff' ? this.status() : undefined), timeoutMs, { intervalMs: 200 });
  }

  /** Sends a signal to the running container only (the pod restarts it, as a kubelet would after a crash). */
  async signal(signal: 'TERM' | 'KILL'): Promise<void> {
    await this.current?.kill(signal);
  }

  /**
   * Stops the pod as the kubelet does on deletion: SIGTERM, SIGKILL once
   * terminationGracePeriodSeconds have passed. Returns the exit code and how long it took.
   */
  async terminate(): Promise<{ exitCode: number | undefined; elapsedMs: number; gracePeriodMs: number; killedAfterGrace: boolean }> {
    const gracePeriodMs = (this.prepared.spec.terminationGracePeriodSeconds ?? POD_DEFAULTS.terminationGracePeriodSeconds) * 1000;
    this.stopping = true;
    this.wakeBackOff?.();
    const container = this.current;
    const started = Date.now();
    let killedAfterGrace = false;
    let exitCode: number | undefined;
    if (container !== undefined && container.isRunning()) {
      await container.kill('TERM');
      const timer = setTimeout(() => {
        killedAfterGrace = true;
        void container.kill('KILL');
      }, gracePeriodMs);
      exitCode = (await container.exited).code;
      clearTimeout(timer);
    }
    const elapsedMs = Date.now() - started;
    await this.loop;
    return { exitCode, elapsedMs, gracePeriodMs, killedAfterGrace };
  }

  /** Kills whatever runs and removes the pod's files; safe to call twice and after terminate. */
  async close(): Promise<void> {
    this.stopping = true;
    this.wakeBackOff?.();
    await this.current?.remove();
    await this.loop?.catch(() => undefined);
    await removePodDirectory(this.prepared.directory, this.prepared.tmpfsMounts);
  }

  private async runLoop(): Promise<void> {
    let instance = 0;
    while (!this.stopping) {
      instance += 1;
      const id = `${this.name}-${this.token}-${instance}`;
      const container = await this.startContainer(id);
      this.current = container;
      this.currentRecord = { id, startedAt: container.startedAt, livenessKill: false, logTail: '' };
      this.phase = 'Running';
      const probes = this.startProbes(container);
      const exit = await container.exited;
      probes.stop();
      this.readyValue = false;
      const record: ContainerRunRecord = { ...this.currentRecord, exitCode: exit.code, finishedAt: exit.at, logTail: container.output.tail(40) };
      this.history.push(record);
      this.currentRecord = undefined;
      await container.remove();
      this.current = undefined;
      if (this.stopping) break;
      const delay = restartBackOffMs(this.restarts + 1, this.options.backOff ?? RESTART_BACK_OFF);
      this.log(`container exited with code ${exit.code}${record.livenessKill ? ' (killed: liveness probe failed)' : ''}; restart ${this.restarts + 1} in ${delay / 1000}s`);
      if (delay > 0) {
        this.phase = 'CrashLoopBackOff';
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wakeBackOff = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeBackOff = undefined;
        if (this.stopping) break;
      }
      this.restarts += 1;
    }
    this.phase = 'Terminated';
  }

  private async startContainer(id: string): Promise<RuncContainer> {
    const prepared = this.prepared;
    const bundle = join(prepared.directory, 'bundles', id);
    await mkdir(bundle, { recursive: true });
    let rootfs = prepared.rootfs;
    if (prepared.container.securityContext?.readOnlyRootFilesystem !== true) {
      // A writable root must not write into the shared cache: the container gets a copy.
      rootfs = join(bundle, 'rootfs');
      await cp(prepared.rootfs, rootfs, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
    }
    const terminationMessageFile = join(bundle, 'termination-log');
    await writeFile(terminationMessageFile, '');
    await chmod(terminationMessageFile, 0o666);
    const config = containerRuntimeConfig({
      spec: prepared.spec,
      container: prepared.container,
      image: prepared.image.settings,
      rootfsPath: rootfs,
      volumes: prepared.volumes,
      ...(prepared.serviceAccountDirectory === undefined ? {} : { serviceAccountDirectory: prepared.serviceAccountDirectory }),
      etcHostsFile: join(prepared.directory, 'etc-hosts'),
      resolvConfFile: join(prepared.directory, 'resolv.conf'),
      hostnameFile: join(prepared.directory, 'hostname'),
      terminationMessageFile,
      hostname: prepared.spec.hostNetwork === true ? osHostname() : this.name,
      kubernetesService: kubernetesServiceOf(this.options.api),
      sources: prepared.sources,
      cgroupsPath: `/ccm-pod-runner/${id}`,
      memoryLimitEnforced: prepared.memoryLimit?.enforced === true,
      seccomp: prepared.seccomp,
    });
    await writeFile(join(bundle, 'config.json'), JSON.stringify(config, null, 2));
    const container = RuncContainer.run(id, bundle);
    if (prepared.memoryLimit?.enforced === true) void this.checkMemoryLimit(id, prepared.memoryLimit.bytes, container);
    return container;
  }

  /**
   * Reads the limit back from the container's cgroup (runc writes it after creating the folder,
   * so a read may come early: it is polled for 5 s); says so when the host did not apply it.
   */
  private async checkMemoryLimit(id: string, bytes: number, container: RuncContainer): Promise<void> {
    const path = `/sys/fs/cgroup/memory/ccm-pod-runner/${id}/memory.limit_in_bytes`;
    let last: string | undefined;
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && container.isRunning()) {
      last = (await readFile(path, 'utf8').catch(() => undefined))?.trim();
      // The kernel rounds the limit down to whole pages.
      if (last !== undefined && Math.abs(Number(last) - bytes) < 4096) return;
      await sleep(100);
    }
    if (!container.isRunning() || this.prepared.memoryLimit === undefined) return;
    this.prepared.memoryLimit = { bytes, enforced: false, reason: last === undefined ? `${path} does not exist` : `${path} reads ${last}` };
    this.log(`memory limit ${bytes} bytes NOT enforced: ${this.prepared.memoryLimit.reason}`);
  }

  private startProbes(container: RuncContainer): { stop(): void } {
    const timers: NodeJS.Timeout[] = [];
    let stopped = false;
    const gracePeriodMs = (this.prepared.spec.terminationGracePeriodSeconds ?? POD_DEFAULTS.terminationGracePeriodSeconds) * 1000;
    const run = (kind: ProbeKind, probe: Probe): void => {
      const timing = probeTiming(probe);
      let state: ProbeState = initialProbeState(kind);
      const tick = async (): Promise<void> => {
        if (stopped || !container.isRunning()) return;
        timers.push(setTimeout(() => void tick(), timing.periodMs));
        if (Date.now() - container.startedAt < timing.initialDelayMs) return;
        const outcome = await runProbe(probe, this.prepared.container, timing.timeoutMs);
        if (stopped || !container.isRunning()) return;
        const observed = observeProbe(kind, timing, state, outcome);
        state = observed.state;
        if (kind === 'readiness') this.readyValue = state.result === 'success';
        if (observed.kill) {
          this.livenessKills += 1;
          if (this.currentRecord !== undefined) this.currentRecord.livenessKill = true;
          this.log(`liveness probe failed ${timing.failureThreshold} times in a row: killing the container (grace ${gracePeriodMs / 1000}s)`);
          await container.kill('TERM');
          const timer = setTimeout(() => void container.kill('KILL'), gracePeriodMs);
          void container.exited.then(() => clearTimeout(timer));
        }
      };
      void tick();
    };
    if (this.prepared.container.livenessProbe !== undefined) run('liveness', this.prepared.container.livenessProbe);
    if (this.prepared.container.readinessProbe !== undefined) run('readiness', this.prepared.container.readinessProbe);
    else this.readyValue = true;
    return {
      stop: () => {
        stopped = true;
        for (const timer of timers) clearTimeout(timer);
      },
    };
  }
}

function kubernetesServiceOf(api: PodRunnerApiServer): { host: string; port: number } {
  const url = new URL(api.server);
  return { host: url.hostname, port: Number(url.port || 443) };
}

/** One probe as the kubelet sends it: HTTPS without verifying the certificate, 200-399 is success. */
export async function runProbe(probe: Probe, container: Container, timeoutMs: number): Promise<'success' | 'failure'> {
  const resolvePort = (port: number | string): number => {
    if (typeof port === 'number') return port;
    const named = container.ports?.find((entry) => entry.name === port);
    if (named === undefined) throw new PodConfigError('Unsupported', `container ${container.name}: probe port ${port} names no port`);
    return named.containerPort;
  };
  if (probe.tcpSocket !== undefined) {
    const port = resolvePort(probe.tcpSocket.port);
    return new Promise((resolve) => {
      const socket = connect({ host: probe.tcpSocket!.host ?? '127.0.0.1', port, timeout: timeoutMs });
      socket.once('connect', () => (socket.destroy(), resolve('success')));
      socket.once('timeout', () => (socket.destroy(), resolve('failure')));
      socket.once('error', () => resolve('failure'));
    });
  }
  const get = probe.httpGet!;
  const port = resolvePort(get.port);
  const https = get.scheme === 'HTTPS';
  const headers: Record<string, string> = { 'user-agent': 'kube-probe/1.33', accept: '*/*' };
  for (const header of get.httpHeaders ?? []) headers[header.name.toLowerCase()] = header.value;
  const options = { host: get.host ?? '127.0.0.1', port, path: get.path ?? '/', method: 'GET', headers, timeout: timeoutMs, ...(https ? { rejectUnauthorized: false } : {}) };
  return new Promise((resolve) => {
    const request = (https ? httpsRequest : httpRequest)(options, (response) => {
      response.resume();
      response.once('end', () => resolve(isProbeSuccessStatus(response.statusCode ?? 0) ? 'success' : 'failure'));
      response.once('error', () => resolve('failure'));
    });
    request.once('timeout', () => {
      request.destroy();
      resolve('failure');
    });
    request.once('error', () => resolve('failure'));
    request.end();
  });
}

async function readConfigMap(client: KubeTestClient, namespace: string, name: string): Promise<Record<string, Buffer> | undefined> {
  try {
    const object = await client.request<{ data?: Record<string, string>; binaryData?: Record<string, string> }>('GET', `/api/v1/namespaces/${namespace}/configmaps/${name}`);
    const data: Record<string, Buffer> = {};
    for (const [key, value] of Object.entries(object.data ?? {})) data[key] = Buffer.from(value, 'utf8');
    for (const [key, value] of Object.entries(object.binaryData ?? {})) data[key] = Buffer.from(value, 'base64');
    return data;
  } catch (error) {
    if (error instanceof KubeRequestError && error.status === 404) return undefined;
    throw error;
  }
}

async function readSecret(client: KubeTestClient, namespace: string, name: string): Promise<Record<string, Buffer> | undefined> {
  try {
    const object = await client.request<{ data?: Record<string, string> }>('GET', `/api/v1/namespaces/${namespace}/secrets/${name}`);
    const data: Record<string, Buffer> = {};
    for (const [key, value] of Object.entries(object.data ?? {})) data[key] = Buffer.from(value, 'base64');
    return data;
  } catch (error) {
    if (error instanceof KubeRequestError && error.status === 404) return undefined;
    throw error;
  }
}

const utf8Values = (data: Record<string, Buffer>): Record<string, string> => Object.fromEntries(Object.entries(data).map(([key, value]) => [key, value.toString('utf8')]));

async function preparePod(options: RunPodOptions): Promise<PreparedPod> {
  const { client, deployment: reference } = options;
  const deployment = await client.request<DeploymentObject>('GET', `/apis/apps/v1/namespaces/${reference.namespace}/deployments/${reference.name}`);
  const spec = deployment.spec.template.spec;
  const unsupported = unsupportedPodFields(spec);
  if (unsupported.length > 0) throw new PodConfigError('Unsupported', `deployment ${reference.namespace}/${reference.name}: the pod runner cannot honour ${unsupported.join(', ')}`);
  if (spec.containers.length !== 1) throw new PodConfigError('Unsupported', `deployment ${reference.namespace}/${reference.name}: the pod runner runs pods of one container, this one has ${spec.containers.length}`);
  const namespace = reference.namespace;

  const portMap = new Map<number, number>();
  if (spec.hostNetwork === true) for (const port of spec.containers[0]!.ports ?? []) portMap.set(port.containerPort, await findFreePort());
  const container = relocatePorts(spec.containers[0]!, portMap);

  const image = typeof options.image === 'string' ? await readOciImage(options.image) : options.image;
  const rootfs = await unpackRootfs(image);
  const directory = await mkdtemp(join(tmpdir(), `ccm-pod-${options.podName}-`));
  await chmod(directory, 0o755);
  const tmpfsMounts: string[] = [];
  try {
    await writeFile(join(directory, 'etc-hosts'), await readFile('/etc/hosts'));
    await writeFile(join(directory, 'resolv.conf'), await readFile('/etc/resolv.conf').catch(() => Buffer.from('')));
    await writeFile(join(directory, 'hostname'), `${spec.hostNetwork === true ? osHostname() : options.podName}\n`);

    // Volumes: the kubelet does not start a container whose ConfigMap or Secret is missing (unless optional).
    const volumes: Record<string, PreparedVolume> = {};
    for (const volume of spec.volumes ?? []) {
      if (volume.emptyDir !== undefined) {
        // As the kubelet: a folder of mode 0777 on the host (a tmpfs of sizeLimit for medium Memory), bind-mounted.
        const hostPath = join(directory, 'volumes', volume.name);
        await mkdir(hostPath, { recursive: true });
        if (volume.emptyDir.medium === 'Memory') {
          const sizeLimit = volume.emptyDir.sizeLimit;
          const size = sizeLimit === undefined ? undefined : memoryLimitBytes({ name: volume.name, image: '', resources: { limits: { memory: sizeLimit } } });
          await execFileAsync('mount', ['-t', 'tmpfs', '-o', `mode=0777,nosuid,nodev${size === undefined ? '' : `,size=${size}`}`, 'tmpfs', hostPath]);
          tmpfsMounts.push(hostPath);
          liveTmpfsMounts.add(hostPath);
        }
        await chmod(hostPath, 0o777);
        volumes[volume.name] = { kind: 'bind', hostPath };
        continue;
      }
      const hostPath = join(directory, 'volumes', volume.name);
      if (volume.configMap !== undefined) {
        const data = await readConfigMap(client, namespace, volume.configMap.name);
        if (data === undefined && volume.configMap.optional !== true) throw new PodConfigError('MissingReference', `volume ${volume.name}: configmap ${namespace}/${volume.configMap.name} not found`);
        await writeAtomicVolume(hostPath, projectKeys(`configmap ${volume.configMap.name}`, data ?? {}, volume.configMap.items, volume.configMap.defaultMode), spec.securityContext?.fsGroup);
      } else if (volume.secret !== undefined) {
        const data = await readSecret(client, namespace, volume.secret.secretName);
        if (data === undefined && volume.secret.optional !== true) throw new PodConfigError('MissingReference', `volume ${volume.name}: secret ${namespace}/${volume.secret.secretName} not found`);
        await writeAtomicVolume(hostPath, projectKeys(`secret ${volume.secret.secretName}`, data ?? {}, volume.secret.items, volume.secret.defaultMode), spec.securityContext?.fsGroup);
      }
      volumes[volume.name] = { kind: 'bind', hostPath };
    }

    // The projected kube-api-access volume: a bound token from TokenRequest, the CA, the namespace.
    let serviceAccountDirectory: string | undefined;
    if (spec.automountServiceAccountToken !== false) {
      const serviceAccount = spec.serviceAccountName ?? 'default';
      const token = await client.requestServiceAccountToken(namespace, serviceAccount, 3607).catch((error: unknown) => {
        throw new PodConfigError('MissingReference', `TokenRequest for serviceaccount ${namespace}/${serviceAccount}: ${(error as Error).message}`);
      });
      serviceAccountDirectory = join(directory, 'volumes', 'kube-api-access');
      await writeAtomicVolume(serviceAccountDirectory, [
        { path: 'token', content: Buffer.from(token), mode: POD_DEFAULTS.volumeDefaultMode },
        { path: 'ca.crt', content: Buffer.from(options.api.servingCa()), mode: POD_DEFAULTS.volumeDefaultMode },
        { path: 'namespace', content: Buffer.from(namespace), mode: POD_DEFAULTS.volumeDefaultMode },
      ]);
    }

    // Values env[].valueFrom reads.
    const sources: EnvironmentSources = {
      configMaps: {},
      secrets: {},
      fields: {
        'metadata.name': options.podName,
        'metadata.namespace': namespace,
        'spec.nodeName': osHostname(),
        'spec.serviceAccountName': spec.serviceAccountName ?? 'default',
        'status.podIP': '127.0.0.1',
        'status.hostIP': '127.0.0.1',
      },
    };
    for (const variable of container.env ?? []) {
      const configMapName = variable.valueFrom?.configMapKeyRef?.name;
      if (configMapName !== undefined && sources.configMaps[configMapName] === undefined) sources.configMaps[configMapName] = utf8Values((await readConfigMap(client, namespace, configMapName)) ?? {});
      const secretName = variable.valueFrom?.secretKeyRef?.name;
      if (secretName !== undefined && sources.secrets[secretName] === undefined) sources.secrets[secretName] = utf8Values((await readSecret(client, namespace, secretName)) ?? {});
    }

    const limit = memoryLimitBytes(container);
    let memoryLimit: PodStatusReport['memoryLimit'];
    if (limit !== undefined) {
      const reason = await memoryLimitUnenforceableReason();
      memoryLimit = reason === undefined ? { bytes: limit, enforced: true } : { bytes: limit, enforced: false, reason };
    }
    return { spec, container, portMap, directory, tmpfsMounts, volumes, serviceAccountDirectory, sources, rootfs, image, seccomp: await runcSupportsSeccomp(), memoryLimit };
  } catch (error) {
    await removePodDirectory(directory, tmpfsMounts);
    throw error;
  }
}

/** Unmounts the pod's tmpfs volumes (lazily: a dying container may still hold them) and removes its folder. */
async function removePodDirectory(directory: string, tmpfsMounts: string[]): Promise<void> {
  for (const path of tmpfsMounts) {
    await execFileAsync('umount', ['--lazy', path]).catch(() => undefined);
    liveTmpfsMounts.delete(path);
  }
  await rm(directory, { recursive: true, force: true });
}

/** A Deployment's pod names look like `<deployment>-<template hash>-<5 characters>`. */
export function podNameFor(deployment: string): string {
  podSequence += 1;
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  const pick = (length: number): string => Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join('');
  return `${deployment}-${pick(10)}-${pick(4)}${podSequence % 10}`;
}

/** `kubectl kustomize`'s name of a generated ConfigMap (with its hash suffix) among rendered objects. */
export function generatedConfigMapName(objects: Array<Record<string, unknown>>, prefix: string): string {
  const found = objects.find((object) => object['kind'] === 'ConfigMap' && String((object['metadata'] as { name?: string }).name ?? '').startsWith(`${prefix}-`));
  if (found === undefined) throw new Error(`the overlay renders no ConfigMap named ${prefix}-<hash>`);
  return (found['metadata'] as { name: string }).name;
}

/** Resolves `kubectl` for failure messages (the version the runner applied with). */
export async function kubectlVersion(): Promise<string> {
  const { stdout } = await execFileAsync('kubectl', ['version', '--client', '-o', 'json']);
  return (JSON.parse(stdout) as { clientVersion?: { gitVersion?: string } }).clientVersion?.gitVersion ?? 'unknown';
}
