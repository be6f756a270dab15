/**
 * Pure: one container of a pod spec -> the OCI runtime `config.json` runc runs, the way the
 * kubelet and containerd's CRI plugin build it (command and args over the image's entrypoint and
 * cmd, environment, user, capabilities, no_new_privs, read-only root, mounts, namespaces, memory
 * limit, seccomp). Everything that needs I/O (volume contents, the token, the rootfs) is prepared
 * by the pod runner and passed in as host paths.
 */
import { POD_DEFAULTS, parseQuantityBytes, type Container, type PodSpec, type VolumeMount } from './pod-spec.js';

/** The parts of an OCI image config (`config.config`) a runtime reads. */
export interface ImageRuntimeSettings {
  entrypoint: string[];
  cmd: string[];
  /** `NAME=value` entries. */
  env: string[];
  /** `uid`, `uid:gid` or a name (names cannot be resolved without the image's /etc/passwd). */
  user?: string;
  workingDir?: string;
}

/** Where a volume of the pod lives on the host, prepared by the runner. */
export type PreparedVolume = { kind: 'bind'; hostPath: string } | { kind: 'tmpfs'; sizeBytes?: number };

/** Values `env[].valueFrom` can point at. */
export interface EnvironmentSources {
  configMaps: Record<string, Record<string, string>>;
  secrets: Record<string, Record<string, string>>;
  /** Pod fields for `fieldRef` (metadata.name, metadata.namespace, spec.nodeName, status.podIP...). */
  fields: Record<string, string>;
}

export interface ContainerRuntimeInput {
  spec: PodSpec;
  container: Container;
  image: ImageRuntimeSettings;
  rootfsPath: string;
  volumes: Record<string, PreparedVolume>;
  /** The projected ServiceAccount volume (token, ca.crt, namespace), or undefined without one. */
  serviceAccountDirectory?: string;
  /** Host files bind-mounted as the kubelet does: /etc/hosts, /etc/resolv.conf, /etc/hostname, the termination log. */
  etcHostsFile: string;
  resolvConfFile: string;
  hostnameFile: string;
  terminationMessageFile: string;
  hostname: string;
  /** The in-cluster API server address (`KUBERNETES_SERVICE_HOST`/`PORT`). */
  kubernetesService: { host: string; port: number };
  sources: EnvironmentSources;
  /** cgroup path (cgroupfs) and whether the host enforces a memory limit there. */
  cgroupsPath: string;
  memoryLimitEnforced: boolean;
  /** Whether RuntimeDefault seccomp is applied (false: left out, the runner says why). */
  seccomp: boolean;
}

/** A pod spec this runner (like a kubelet) refuses to run: CreateContainerConfigError and friends. */
export class PodConfigError extends Error {
  override readonly name = 'PodConfigError';
  constructor(
    readonly kind: 'RunAsRoot' | 'MissingReference' | 'UnknownVolume' | 'BadQuantity' | 'Unsupported',
    message: string,
  ) {
    super(message);
  }
}

/** containerd's default capability set (pkg/oci/spec.go `defaultUnixCaps`), before add and drop. */
export const DEFAULT_CAPABILITIES = [
  'CAP_CHOWN',
  'CAP_DAC_OVERRIDE',
  'CAP_FSETID',
  'CAP_FOWNER',
  'CAP_MKNOD',
  'CAP_NET_RAW',
  'CAP_SETGID',
  'CAP_SETUID',
  'CAP_SETFCAP',
  'CAP_SETPCAP',
  'CAP_NET_BIND_SERVICE',
  'CAP_SYS_CHROOT',
  'CAP_KILL',
  'CAP_AUDIT_WRITE',
] as const;

/** /proc and /sys paths containerd masks and makes read-only (pkg/oci/spec.go). */
export const MASKED_PATHS = [
  '/proc/acpi',
  '/proc/asound',
  '/proc/kcore',
  '/proc/keys',
  '/proc/latency_stats',
  '/proc/timer_list',
  '/proc/timer_stats',
  '/proc/sched_debug',
  '/sys/firmware',
  '/proc/scsi',
] as const;
export const READONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'] as const;

/**
 * RuntimeDefault, approximated: every syscall allowed except those containerd's default profile
 * refuses to a container without the matching capability (mount, ptrace, kexec, bpf, namespaces,
 * keyrings, modules, clock, swap, reboot...), answered EPERM. The real profile is an allow-list;
 * this deny-list keeps the part a CCM could trip over.
 */
export const RUNTIME_DEFAULT_DENIED_SYSCALLS = [
  'acct', 'add_key', 'bpf', 'clock_adjtime', 'clock_settime', 'create_module', 'delete_module', 'finit_module',
  'get_kernel_syms', 'init_module', 'ioperm', 'iopl', 'kcmp', 'kexec_file_load', 'kexec_load', 'keyctl',
  'lookup_dcookie', 'mount', 'move_mount', 'name_to_handle_at', 'nfsservctl', 'open_by_handle_at', 'open_tree',
  'perf_event_open', 'pivot_root', 'process_vm_readv', 'process_vm_writev', 'ptrace', 'query_module', 'quotactl',
  'reboot', 'request_key', 'setns', 'settimeofday', 'swapoff', 'swapon', 'sysfs', 'umount2', 'unshare', 'uselib',
  'userfaultfd', 'ustat', 'vm86', 'vm86old', 'fsopen', 'fsconfig', 'fsmount', 'fspick',
] as const;

export interface OciMount {
  destination: string;
  type: string;
  source: string;
  options: string[];
}

/** The subset of the OCI runtime spec (1.0.2) this runner writes. */
export interface OciRuntimeConfig {
  ociVersion: '1.0.2';
  process: {
    terminal: false;
    user: { uid: number; gid: number; additionalGids?: number[] };
    args: string[];
    env: string[];
    cwd: string;
    capabilities: { bounding: string[]; effective: string[]; permitted: string[]; inheritable: string[]; ambient: string[] };
    noNewPrivileges: boolean;
    oomScoreAdj: number;
  };
  root: { path: string; readonly: boolean };
  hostname?: string;
  mounts: OciMount[];
  linux: {
    namespaces: Array<{ type: string }>;
    cgroupsPath: string;
    resources: { devices: Array<{ allow: boolean; access: string }>; memory?: { limit: number; swap: number } };
    maskedPaths: string[];
    readonlyPaths: string[];
    seccomp?: {
      defaultAction: 'SCMP_ACT_ALLOW';
      architectures: string[];
      syscalls: Array<{ names: string[]; action: 'SCMP_ACT_ERRNO'; errnoRet: number }>;
    };
  };
}

/** The effective user, group and groups: container securityContext over the pod's over the image's USER. */
export function resolveUser(spec: PodSpec, container: Container, image: ImageRuntimeSettings): { uid: number; gid: number; additionalGids: number[] } {
  const [imageUser, imageGroup] = (image.user ?? '').split(':');
  const numeric = (text: string | undefined): number | undefined => (text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined);
  const uid = container.securityContext?.runAsUser ?? spec.securityContext?.runAsUser ?? (imageUser === '' || imageUser === undefined ? 0 : numeric(imageUser));
  const runAsNonRoot = container.securityContext?.runAsNonRoot ?? spec.securityContext?.runAsNonRoot ?? false;
  if (uid === undefined) {
    throw new PodConfigError('RunAsRoot', `container ${container.name}: the image's USER ${JSON.stringify(image.user)} is not numeric and runAsUser is not set: cannot verify runAsNonRoot`);
  }
  if (runAsNonRoot && uid === 0) throw new PodConfigError('RunAsRoot', `container ${container.name} has runAsNonRoot and image will run as root`);
  const gid = container.securityContext?.runAsGroup ?? spec.securityContext?.runAsGroup ?? numeric(imageGroup) ?? 0;
  const additionalGids = [...(spec.securityContext?.supplementalGroups ?? []), ...(spec.securityContext?.fsGroup === undefined ? [] : [spec.securityContext.fsGroup])];
  return { uid, gid, additionalGids: [...new Set(additionalGids)] };
}

/** containerd's defaults, plus `add`, minus `drop` (`ALL` drops everything, then `add` applies). */
export function resolveCapabilities(container: Container): string[] {
  const normalise = (name: string): string => (name.toUpperCase().startsWith('CAP_') ? name.toUpperCase() : `CAP_${name.toUpperCase()}`);
  const drop = (container.securityContext?.capabilities?.drop ?? []).map(normalise);
  const add = (container.securityContext?.capabilities?.add ?? []).map(normalise);
  const base: string[] = drop.includes('CAP_ALL') ? [] : DEFAULT_CAPABILITIES.filter((name) => !drop.includes(name));
  for (const name of add) if (name !== 'CAP_ALL' && !base.includes(name)) base.push(name);
  return base;
}

/** The kubelet's in-cluster variables for the `kubernetes` Service (service links, `enableServiceLinks`). */
export function kubernetesServiceEnvironment(service: { host: string; port: number }): Record<string, string> {
  const { host, port } = service;
  return {
    KUBERNETES_SERVICE_HOST: host,
    KUBERNETES_SERVICE_PORT: String(port),
    KUBERNETES_SERVICE_PORT_HTTPS: String(port),
    KUBERNETES_PORT: `tcp://${host}:${port}`,
    [`KUBERNETES_PORT_${port}_TCP`]: `tcp://${host}:${port}`,
    [`KUBERNETES_PORT_${port}_TCP_PROTO`]: 'tcp',
    [`KUBERNETES_PORT_${port}_TCP_PORT`]: String(port),
    [`KUBERNETES_PORT_${port}_TCP_ADDR`]: host,
  };
}

/**
 * The environment as containerd passes it: the image's, then HOSTNAME, then the service links,
 * then the container's `env` (later wins), `$(VAR)` references expanded against earlier ones.
 */
export function resolveEnvironment(container: Container, image: ImageRuntimeSettings, hostname: string, kubernetesService: { host: string; port: number }, sources: EnvironmentSources): string[] {
  const values = new Map<string, string>();
  for (const entry of image.env) {
    const index = entry.indexOf('=');
    if (index > 0) values.set(entry.slice(0, index), entry.slice(index + 1));
  }
  values.set('HOSTNAME', hostname);
  const declared = new Map<string, string>();
  for (const [name, value] of Object.entries(kubernetesServiceEnvironment(kubernetesService))) declared.set(name, value);
  for (const variable of container.env ?? []) {
    const value = variable.value !== undefined ? expandReferences(variable.value, declared) : resolveValueFrom(container.name, variable, sources);
    if (value !== undefined) declared.set(variable.name, value);
  }
  for (const [name, value] of declared) values.set(name, value);
  return [...values].map(([name, value]) => `${name}=${value}`);
}

function resolveValueFrom(containerName: string, variable: NonNullable<Container['env']>[number], sources: EnvironmentSources): string | undefined {
  const from = variable.valueFrom;
  if (from === undefined) return '';
  const where = `container ${containerName}: env ${variable.name}`;
  if (from.configMapKeyRef !== undefined) {
    const value = sources.configMaps[from.configMapKeyRef.name]?.[from.configMapKeyRef.key];
    if (value === undefined && from.configMapKeyRef.optional !== true) throw new PodConfigError('MissingReference', `${where}: configmap ${from.configMapKeyRef.name} has no key ${from.configMapKeyRef.key}`);
    return value;
  }
  if (from.secretKeyRef !== undefined) {
    const value = sources.secrets[from.secretKeyRef.name]?.[from.secretKeyRef.key];
    if (value === undefined && from.secretKeyRef.optional !== true) throw new PodConfigError('MissingReference', `${where}: secret ${from.secretKeyRef.name} has no key ${from.secretKeyRef.key}`);
    return value;
  }
  if (from.fieldRef !== undefined) {
    const value = sources.fields[from.fieldRef.fieldPath];
    if (value === undefined) throw new PodConfigError('Unsupported', `${where}: fieldRef ${from.fieldRef.fieldPath} is not supported by the pod runner`);
    return value;
  }
  throw new PodConfigError('Unsupported', `${where}: this valueFrom is not supported by the pod runner`);
}

/** `$(NAME)` -> value of an earlier variable; `$$(NAME)` -> literal `$(NAME)`; unknown references stay as written. */
export function expandReferences(text: string, known: ReadonlyMap<string, string>): string {
  return text.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (match, name: string | undefined) => {
    if (match === '$$') return '$';
    return known.get(name ?? '') ?? match;
  });
}

/** The process's argv: `command` replaces the image's entrypoint (and drops its cmd), `args` replaces cmd. */
export function resolveArgv(container: Container, image: ImageRuntimeSettings, environment: ReadonlyMap<string, string>): string[] {
  const expand = (items: string[]): string[] => items.map((item) => expandReferences(item, environment));
  if (container.command !== undefined) return [...expand(container.command), ...expand(container.args ?? [])];
  return [...image.entrypoint, ...(container.args !== undefined ? expand(container.args) : image.cmd)];
}

/** The memory limit in bytes, or undefined without one. */
export function memoryLimitBytes(container: Container): number | undefined {
  const limit = container.resources?.limits?.['memory'];
  if (limit === undefined) return undefined;
  try {
    return parseQuantityBytes(limit);
  } catch (error) {
    throw new PodConfigError('BadQuantity', `container ${container.name}: resources.limits.memory: ${(error as Error).message}`);
  }
}

function volumeMount(container: Container, mount: VolumeMount, volumes: Record<string, PreparedVolume>): OciMount {
  const volume = volumes[mount.name];
  if (volume === undefined) throw new PodConfigError('UnknownVolume', `container ${container.name}: volumeMount ${mount.name} names no volume of the pod`);
  if (volume.kind === 'tmpfs') {
    const options = ['nosuid', 'nodev', 'mode=1777'];
    if (volume.sizeBytes !== undefined) options.push(`size=${volume.sizeBytes}`);
    if (mount.readOnly === true) options.push('ro');
    return { destination: mount.mountPath, type: 'tmpfs', source: 'tmpfs', options };
  }
  return { destination: mount.mountPath, type: 'bind', source: volume.hostPath, options: ['rbind', 'rprivate', mount.readOnly === true ? 'ro' : 'rw'] };
}

/** The whole `config.json` for one container of the pod. */
export function containerRuntimeConfig(input: ContainerRuntimeInput): OciRuntimeConfig {
  const { spec, container, image } = input;
  const user = resolveUser(spec, container, image);
  const env = resolveEnvironment(container, image, input.hostname, input.kubernetesService, input.sources);
  const envMap = new Map(env.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
  const capabilities = resolveCapabilities(container);
  const securityContext = container.securityContext ?? {};
  const hostNetwork = spec.hostNetwork === true;

  const mounts: OciMount[] = [
    { destination: '/proc', type: 'proc', source: 'proc', options: ['nosuid', 'noexec', 'nodev'] },
    { destination: '/dev', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'strictatime', 'mode=755', 'size=65536k'] },
    { destination: '/dev/pts', type: 'devpts', source: 'devpts', options: ['nosuid', 'noexec', 'newinstance', 'ptmxmode=0666', 'mode=0620', 'gid=5'] },
    { destination: '/dev/mqueue', type: 'mqueue', source: 'mqueue', options: ['nosuid', 'noexec', 'nodev'] },
    { destination: '/sys', type: 'sysfs', source: 'sysfs', options: ['nosuid', 'noexec', 'nodev', 'ro'] },
    { destination: '/sys/fs/cgroup', type: 'cgroup', source: 'cgroup', options: ['nosuid', 'noexec', 'nodev', 'relatime', 'ro'] },
    { destination: '/dev/shm', type: 'tmpfs', source: 'shm', options: ['nosuid', 'noexec', 'nodev', 'mode=1777', 'size=65536k'] },
    { destination: '/etc/hosts', type: 'bind', source: input.etcHostsFile, options: ['rbind', 'rprivate', 'rw'] },
    { destination: '/etc/hostname', type: 'bind', source: input.hostnameFile, options: ['rbind', 'rprivate', 'rw'] },
    { destination: '/etc/resolv.conf', type: 'bind', source: input.resolvConfFile, options: ['rbind', 'rprivate', 'rw'] },
    {
      destination: container.terminationMessagePath ?? POD_DEFAULTS.terminationMessagePath,
      type: 'bind',
      source: input.terminationMessageFile,
      options: ['rbind', 'rprivate', 'rw'],
    },
  ];
  for (const mount of container.volumeMounts ?? []) mounts.push(volumeMount(container, mount, input.volumes));
  if (input.serviceAccountDirectory !== undefined && !(container.volumeMounts ?? []).some((mount) => mount.mountPath === SERVICE_ACCOUNT_MOUNT_PATH)) {
    mounts.push({ destination: SERVICE_ACCOUNT_MOUNT_PATH, type: 'bind', source: input.serviceAccountDirectory, options: ['rbind', 'rprivate', 'ro'] });
  }

  const namespaces = [{ type: 'pid' }, { type: 'ipc' }, { type: 'mount' }];
  if (!hostNetwork) namespaces.push({ type: 'network' }, { type: 'uts' });
  const memory = memoryLimitBytes(container);
  const config: OciRuntimeConfig = {
    ociVersion: '1.0.2',
    process: {
      terminal: false,
      user: user.additionalGids.length > 0 ? user : { uid: user.uid, gid: user.gid },
      args: resolveArgv(container, image, envMap),
      env,
      cwd: container.workingDir ?? (image.workingDir || '/'),
      capabilities: { bounding: capabilities, effective: capabilities, permitted: capabilities, inheritable: [], ambient: [] },
      // The kubelet sets no_new_privs unless privilege escalation is allowed (the default allows it).
      noNewPrivileges: securityContext.allowPrivilegeEscalation === false,
      // A Burstable pod: the kubelet gives it an OOM score between 2 and 999; 999 is its worst case.
      oomScoreAdj: 999,
    },
    root: { path: input.rootfsPath, readonly: securityContext.readOnlyRootFilesystem === true },
    mounts,
    linux: {
      namespaces,
      cgroupsPath: input.cgroupsPath,
      resources: { devices: [{ allow: false, access: 'rwm' }] },
      maskedPaths: [...MASKED_PATHS],
      readonlyPaths: [...READONLY_PATHS],
    },
  };
  if (!hostNetwork) config.hostname = input.hostname;
  if (memory !== undefined && input.memoryLimitEnforced) config.linux.resources.memory = { limit: memory, swap: memory };
  const seccompType = securityContext.seccompProfile?.type ?? spec.securityContext?.seccompProfile?.type;
  if (input.seccomp && seccompType === 'RuntimeDefault') {
    config.linux.seccomp = {
      defaultAction: 'SCMP_ACT_ALLOW',
      architectures: ['SCMP_ARCH_X86_64', 'SCMP_ARCH_X86', 'SCMP_ARCH_X32'],
      syscalls: [{ names: [...RUNTIME_DEFAULT_DENIED_SYSCALLS], action: 'SCMP_ACT_ERRNO', errnoRet: 1 }],
    };
  }
  return config;
}

/** Where the kubelet projects the ServiceAccount token, CA and namespace. */
export const SERVICE_ACCOUNT_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * hostNetwork pods share the host's ports. The tests run several such pods on one host at once,
 * so the runner moves each declared containerPort to a free host port: `--flag=<port>` arguments
 * naming it and the probes' ports are rewritten (a port name stays, it resolves through `ports`).
 * Returns a new container; the port map is old -> new.
 */
export function relocatePorts(container: Container, portMap: ReadonlyMap<number, number>): Container {
  if (portMap.size === 0) return container;
  const mapPort = (port: number | string): number | string => (typeof port === 'number' ? (portMap.get(port) ?? port) : port);
  const relocateProbe = <T extends Container['livenessProbe']>(probe: T): T => {
    if (probe === undefined) return probe;
    const copy = { ...probe };
    if (copy.httpGet !== undefined) copy.httpGet = { ...copy.httpGet, port: mapPort(copy.httpGet.port) };
    if (copy.tcpSocket !== undefined) copy.tcpSocket = { ...copy.tcpSocket, port: mapPort(copy.tcpSocket.port) };
    return copy;
  };
  const relocateArgument = (argument: string): string => {
    const match = /^(--?[A-Za-z0-9-]+=)(\d+)$/.exec(argument);
    if (match === null) return argument;
    const mapped = portMap.get(Number(match[2]));
    return mapped === undefined ? argument : `${match[1]}${mapped}`;
  };
  const relocated: Container = {
    ...container,
    ...(container.args === undefined ? {} : { args: container.args.map(relocateArgument) }),
    ...(container.command === undefined ? {} : { command: container.command.map(relocateArgument) }),
    ...(container.ports === undefined ? {} : { ports: container.ports.map((port) => ({ ...port, containerPort: portMap.get(port.containerPort) ?? port.containerPort })) }),
  };
  if (container.livenessProbe !== undefined) relocated.livenessProbe = relocateProbe(container.livenessProbe);
  if (container.readinessProbe !== undefined) relocated.readinessProbe = relocateProbe(container.readinessProbe);
  return relocated;
}
