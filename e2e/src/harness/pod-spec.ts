/**
 * The parts of a Deployment's pod template the pod runner reads, as `kubectl kustomize` renders
 * them (JSON field names of core/v1). Fields the runner does not implement are rejected by
 * `unsupportedPodFields`, so that a manifest change it cannot honour fails loudly instead of
 * being run differently from a kubelet.
 */
export interface HttpGetAction {
  path?: string;
  port: number | string;
  host?: string;
  scheme?: 'HTTP' | 'HTTPS';
  httpHeaders?: Array<{ name: string; value: string }>;
}

export interface Probe {
  httpGet?: HttpGetAction;
  tcpSocket?: { port: number | string; host?: string };
  exec?: unknown;
  grpc?: unknown;
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  terminationGracePeriodSeconds?: number;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    fieldRef?: { fieldPath: string };
    resourceFieldRef?: unknown;
  };
}

export interface SecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  runAsNonRoot?: boolean;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  privileged?: boolean;
  capabilities?: { add?: string[]; drop?: string[] };
  seccompProfile?: { type: 'RuntimeDefault' | 'Unconfined' | 'Localhost'; localhostProfile?: string };
}

export interface PodSecurityContext extends Omit<SecurityContext, 'readOnlyRootFilesystem' | 'allowPrivilegeEscalation' | 'privileged' | 'capabilities'> {
  fsGroup?: number;
  supplementalGroups?: number[];
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  subPath?: string;
}

export interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

export interface Volume {
  name: string;
  emptyDir?: { medium?: '' | 'Memory'; sizeLimit?: string };
  configMap?: { name: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  secret?: { secretName: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  [source: string]: unknown;
}

export interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  workingDir?: string;
  env?: EnvVar[];
  envFrom?: unknown[];
  ports?: Array<{ name?: string; containerPort: number; protocol?: string; hostPort?: number }>;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: SecurityContext;
  volumeMounts?: VolumeMount[];
  terminationMessagePath?: string;
}

export interface PodSpec {
  serviceAccountName?: string;
  automountServiceAccountToken?: boolean;
  hostNetwork?: boolean;
  dnsPolicy?: string;
  terminationGracePeriodSeconds?: number;
  securityContext?: PodSecurityContext;
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
}

export interface DeploymentObject {
  apiVersion: string;
  kind: 'Deployment';
  metadata: { name: string; namespace?: string };
  spec: { replicas?: number; template: { metadata?: { labels?: Record<string, string> }; spec: PodSpec } };
}

/** What a kubelet applies when the field is left out (pkg/apis/core/v1/defaults.go). */
export const POD_DEFAULTS = {
  terminationGracePeriodSeconds: 30,
  terminationMessagePath: '/dev/termination-log',
  volumeDefaultMode: 0o644,
} as const;

/** The fields of a pod spec this runner cannot honour, described; empty when it can run it. */
export function unsupportedPodFields(spec: PodSpec): string[] {
  const problems: string[] = [];
  if ((spec.initContainers ?? []).length > 0) problems.push('initContainers');
  for (const container of spec.containers) {
    if (container.envFrom !== undefined) problems.push(`containers[${container.name}].envFrom`);
    if (container.startupProbe !== undefined) problems.push(`containers[${container.name}].startupProbe`);
    if (container.securityContext?.privileged === true) problems.push(`containers[${container.name}].securityContext.privileged`);
    for (const [kind, probe] of [['livenessProbe', container.livenessProbe], ['readinessProbe', container.readinessProbe]] as const) {
      if (probe !== undefined && probe.httpGet === undefined && probe.tcpSocket === undefined) problems.push(`containers[${container.name}].${kind} (only httpGet and tcpSocket)`);
    }
    for (const variable of container.env ?? []) {
      if (variable.valueFrom?.resourceFieldRef !== undefined) problems.push(`containers[${container.name}].env[${variable.name}].valueFrom.resourceFieldRef`);
    }
    for (const mount of container.volumeMounts ?? []) if (mount.subPath !== undefined) problems.push(`containers[${container.name}].volumeMounts[${mount.name}].subPath`);
  }
  for (const volume of spec.volumes ?? []) {
    const sources = Object.keys(volume).filter((key) => key !== 'name');
    const known = sources.filter((key) => key === 'emptyDir' || key === 'configMap' || key === 'secret');
    if (known.length !== sources.length) problems.push(`volumes[${volume.name}] (${sources.join(', ')}: only emptyDir, configMap and secret)`);
  }
  return problems;
}

/** Kubernetes quantity (`16Mi`, `512M`, `1Gi`, `1000`) to bytes; throws RangeError on anything else. */
export function parseQuantityBytes(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E|m)?$/.exec(quantity.trim());
  if (match === null) throw new RangeError(`not a Kubernetes quantity: ${JSON.stringify(quantity)}`);
  const value = Number(match[1]);
  const factors: Record<string, number> = {
    '': 1,
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    P: 1e15,
    E: 1e18,
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
    Pi: 2 ** 50,
    Ei: 2 ** 60,
  };
  return Math.ceil(value * (factors[match[2] ?? ''] ?? 1));
}
