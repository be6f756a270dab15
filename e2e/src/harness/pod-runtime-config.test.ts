import { describe, expect, it } from 'vitest';
import { parseQuantityBytes, unsupportedPodFields, type Container, type PodSpec } from './pod-spec.js';
import {
  containerRuntimeConfig,
  DEFAULT_CAPABILITIES,
  expandReferences,
  PodConfigError,
  relocatePorts,
  resolveArgv,
  resolveCapabilities,
  resolveUser,
  SERVICE_ACCOUNT_MOUNT_PATH,
  type ContainerRuntimeInput,
  type ImageRuntimeSettings,
} from './pod-runtime-config.js';

const IMAGE: ImageRuntimeSettings = {
  entrypoint: ['/nodejs/bin/node', '--enable-source-maps', '/app/ccm.mjs'],
  cmd: [],
  env: ['PATH=/usr/local/bin:/usr/bin:/bin', 'NODE_ENV=production'],
  user: '65532:65532',
  workingDir: '/app',
};

/** The container of manifests/base/deployment.yaml with the sandbox overlay's volumes. */
const CONTAINER: Container = {
  name: 'cloud-controller-manager',
  image: 'ghcr.io/ccm-ts/sandbox-cloud-controller-manager:v0.1.0',
  args: ['--cloud-provider=sandbox', '--cloud-config=/etc/kubernetes/cloud-config/cloud.conf', '--secure-port=10258', '--v=2'],
  env: [{ name: 'NODE_OPTIONS', value: '--max-old-space-size=256' }],
  ports: [{ name: 'https', containerPort: 10258, protocol: 'TCP' }],
  livenessProbe: { httpGet: { path: '/healthz', port: 10258, scheme: 'HTTPS' }, initialDelaySeconds: 20, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 3 },
  readinessProbe: { httpGet: { path: '/healthz', port: 10258, scheme: 'HTTPS' }, periodSeconds: 10, timeoutSeconds: 5 },
  resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '512Mi' } },
  securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } },
  volumeMounts: [
    { name: 'tmp', mountPath: '/tmp' },
    { name: 'cloud-config', mountPath: '/etc/kubernetes/cloud-config', readOnly: true },
  ],
};

const SPEC: PodSpec = {
  serviceAccountName: 'cloud-controller-manager',
  hostNetwork: true,
  dnsPolicy: 'Default',
  securityContext: { runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, seccompProfile: { type: 'RuntimeDefault' } },
  containers: [CONTAINER],
  volumes: [
    { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '16Mi' } },
    { name: 'cloud-config', configMap: { name: 'sandbox-cloud-config-abc' } },
  ],
};

function input(overrides: Partial<ContainerRuntimeInput> = {}): ContainerRuntimeInput {
  return {
    spec: SPEC,
    container: CONTAINER,
    image: IMAGE,
    rootfsPath: '/cache/rootfs',
    volumes: { tmp: { kind: 'tmpfs', sizeBytes: 16 * 2 ** 20 }, 'cloud-config': { kind: 'bind', hostPath: '/pod/volumes/cloud-config' } },
    serviceAccountDirectory: '/pod/volumes/kube-api-access',
    etcHostsFile: '/pod/etc-hosts',
    resolvConfFile: '/pod/resolv.conf',
    hostnameFile: '/pod/hostname',
    terminationMessageFile: '/pod/termination-log',
    hostname: 'node-1',
    kubernetesService: { host: '127.0.0.1', port: 6443 },
    sources: { configMaps: {}, secrets: {}, fields: {} },
    cgroupsPath: '/ccm-pod-runner/pod-1',
    memoryLimitEnforced: true,
    seccomp: true,
    ...overrides,
  };
}

describe('containerRuntimeConfig: the base Deployment under runc', () => {
  const config = containerRuntimeConfig(input());

  it('runs the image entrypoint with the Deployment args', () => {
    expect(config.process.args).toEqual([...IMAGE.entrypoint, ...CONTAINER.args!]);
    expect(config.process.cwd).toBe('/app');
  });

  it('runs as 65532:65532 with no capability, no_new_privs and a read-only root', () => {
    expect(config.process.user).toEqual({ uid: 65532, gid: 65532 });
    expect(config.process.capabilities).toEqual({ bounding: [], effective: [], permitted: [], inheritable: [], ambient: [] });
    expect(config.process.noNewPrivileges).toBe(true);
    expect(config.root).toEqual({ path: '/cache/rootfs', readonly: true });
  });

  it('passes the image env, the in-cluster variables and the container env', () => {
    expect(config.process.env).toEqual(
      expect.arrayContaining([
        'PATH=/usr/local/bin:/usr/bin:/bin',
        'NODE_ENV=production',
        'HOSTNAME=node-1',
        'KUBERNETES_SERVICE_HOST=127.0.0.1',
        'KUBERNETES_SERVICE_PORT=6443',
        'KUBERNETES_PORT=tcp://127.0.0.1:6443',
        'NODE_OPTIONS=--max-old-space-size=256',
      ]),
    );
  });

  it('shares the host network and UTS namespaces (hostNetwork) and sets no hostname', () => {
    expect(config.linux.namespaces.map((namespace) => namespace.type)).toEqual(['pid', 'ipc', 'mount']);
    expect(config.hostname).toBeUndefined();
  });

  it('mounts the emptyDir as a sized tmpfs, the ConfigMap read-only and the token read-only', () => {
    const byDestination = new Map(config.mounts.map((mount) => [mount.destination, mount]));
    expect(byDestination.get('/tmp')).toEqual({ destination: '/tmp', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'nodev', 'mode=1777', `size=${16 * 2 ** 20}`] });
    expect(byDestination.get('/etc/kubernetes/cloud-config')).toEqual({ destination: '/etc/kubernetes/cloud-config', type: 'bind', source: '/pod/volumes/cloud-config', options: ['rbind', 'rprivate', 'ro'] });
    expect(byDestination.get(SERVICE_ACCOUNT_MOUNT_PATH)?.options).toContain('ro');
    expect(byDestination.get('/dev/termination-log')?.source).toBe('/pod/termination-log');
  });

  it('limits memory to 512Mi (no swap) in the pod cgroup and applies seccomp', () => {
    expect(config.linux.resources.memory).toEqual({ limit: 512 * 2 ** 20, swap: 512 * 2 ** 20 });
    expect(config.linux.cgroupsPath).toBe('/ccm-pod-runner/pod-1');
    expect(config.linux.seccomp?.syscalls[0]?.names).toContain('mount');
  });
});

describe('containerRuntimeConfig: variations', () => {
  it.each([
    {
      name: 'memory limit not enforceable: left out',
      overrides: { memoryLimitEnforced: false },
      check: (config: ReturnType<typeof containerRuntimeConfig>) => expect(config.linux.resources.memory).toBeUndefined(),
    },
    {
      name: 'seccomp unsupported: left out',
      overrides: { seccomp: false },
      check: (config: ReturnType<typeof containerRuntimeConfig>) => expect(config.linux.seccomp).toBeUndefined(),
    },
    {
      name: 'pod network: own network and UTS namespaces, hostname set',
      overrides: { spec: { ...SPEC, hostNetwork: false } },
      check: (config: ReturnType<typeof containerRuntimeConfig>) => {
        expect(config.linux.namespaces.map((namespace) => namespace.type)).toEqual(['pid', 'ipc', 'mount', 'network', 'uts']);
        expect(config.hostname).toBe('node-1');
      },
    },
    {
      name: 'automountServiceAccountToken false: no token mount',
      overrides: { serviceAccountDirectory: undefined },
      check: (config: ReturnType<typeof containerRuntimeConfig>) => expect(config.mounts.some((mount) => mount.destination === SERVICE_ACCOUNT_MOUNT_PATH)).toBe(false),
    },
    {
      name: 'writable root and privilege escalation allowed',
      overrides: { container: { ...CONTAINER, securityContext: { runAsNonRoot: true } } },
      check: (config: ReturnType<typeof containerRuntimeConfig>) => {
        expect(config.root.readonly).toBe(false);
        expect(config.process.noNewPrivileges).toBe(false);
        expect(config.process.capabilities.bounding).toEqual([...DEFAULT_CAPABILITIES]);
      },
    },
  ])('$name', ({ overrides, check }) => {
    check(containerRuntimeConfig(input(overrides as Partial<ContainerRuntimeInput>)));
  });

  it('refuses a volumeMount without a volume', () => {
    expect(() => containerRuntimeConfig(input({ volumes: { tmp: { kind: 'tmpfs' } } }))).toThrow(PodConfigError);
  });
});

describe('resolveUser', () => {
  it.each([
    { name: 'pod securityContext', spec: SPEC, container: CONTAINER, image: IMAGE, expected: { uid: 65532, gid: 65532, additionalGids: [] } },
    { name: 'container over pod', spec: SPEC, container: { ...CONTAINER, securityContext: { runAsUser: 1000 } }, image: IMAGE, expected: { uid: 1000, gid: 65532, additionalGids: [] } },
    { name: "image's USER without securityContext", spec: { containers: [] }, container: { name: 'c', image: 'x' }, image: IMAGE, expected: { uid: 65532, gid: 65532, additionalGids: [] } },
    {
      name: 'fsGroup and supplementalGroups',
      spec: { containers: [], securityContext: { runAsUser: 5, fsGroup: 2000, supplementalGroups: [3000] } },
      container: { name: 'c', image: 'x' },
      image: IMAGE,
      expected: { uid: 5, gid: 65532, additionalGids: [3000, 2000] },
    },
  ])('$name', ({ spec, container, image, expected }) => {
    expect(resolveUser(spec, container, image)).toEqual(expected);
  });

  it.each([
    { name: 'runAsNonRoot with an image running as root', image: { ...IMAGE, user: '' }, message: /runAsNonRoot and image will run as root/ },
    { name: 'runAsNonRoot with a named USER', image: { ...IMAGE, user: 'nonroot' }, message: /not numeric/ },
  ])('refuses $name', ({ image, message }) => {
    expect(() => resolveUser({ containers: [] }, { name: 'c', image: 'x', securityContext: { runAsNonRoot: true } }, image)).toThrow(message);
  });
});

describe('resolveCapabilities', () => {
  it.each([
    { name: 'drop ALL', capabilities: { drop: ['ALL'] }, expected: [] },
    { name: 'drop ALL, add NET_BIND_SERVICE', capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] }, expected: ['CAP_NET_BIND_SERVICE'] },
    { name: 'drop two', capabilities: { drop: ['NET_RAW', 'CAP_MKNOD'] }, expected: DEFAULT_CAPABILITIES.filter((name) => name !== 'CAP_NET_RAW' && name !== 'CAP_MKNOD') },
    { name: 'default set', capabilities: undefined, expected: [...DEFAULT_CAPABILITIES] },
  ])('$name', ({ capabilities, expected }) => {
    expect(resolveCapabilities({ name: 'c', image: 'x', ...(capabilities === undefined ? {} : { securityContext: { capabilities } }) })).toEqual(expected);
  });
});

describe('resolveArgv and expandReferences', () => {
  const environment = new Map([['PORT', '8080']]);
  it.each([
    { name: 'args only: entrypoint + args', container: { name: 'c', image: 'x', args: ['--port=$(PORT)'] }, expected: [...IMAGE.entrypoint, '--port=8080'] },
    { name: 'neither: entrypoint + cmd', container: { name: 'c', image: 'x' }, image: { ...IMAGE, cmd: ['--help'] }, expected: [...IMAGE.entrypoint, '--help'] },
    { name: 'command replaces entrypoint and cmd', container: { name: 'c', image: 'x', command: ['/bin/true'] }, image: { ...IMAGE, cmd: ['--help'] }, expected: ['/bin/true'] },
    { name: 'escaped and unknown references stay', container: { name: 'c', image: 'x', args: ['$$(PORT)', '$(NOPE)'] }, expected: [...IMAGE.entrypoint, '$(PORT)', '$(NOPE)'] },
  ])('$name', ({ container, image, expected }) => {
    expect(resolveArgv(container, image ?? IMAGE, environment)).toEqual(expected);
  });

  it('expands $(VAR) in env values against earlier variables', () => {
    expect(expandReferences('http://$(HOST):$(PORT)/', new Map([['HOST', 'a'], ['PORT', '1']]))).toBe('http://a:1/');
  });

  it('resolves valueFrom secretKeyRef, configMapKeyRef and fieldRef, and refuses a missing key', () => {
    const container: Container = {
      name: 'c',
      image: 'x',
      env: [
        { name: 'SECRET', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
        { name: 'CONFIG', valueFrom: { configMapKeyRef: { name: 'm', key: 'k' } } },
        { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      ],
    };
    const sources = { secrets: { s: { k: 'secret-value' } }, configMaps: { m: { k: 'config-value' } }, fields: { 'metadata.name': 'pod-1' } };
    const config = containerRuntimeConfig(input({ container, sources, volumes: {} }));
    expect(config.process.env).toEqual(expect.arrayContaining(['SECRET=secret-value', 'CONFIG=config-value', 'POD=pod-1']));
    expect(() => containerRuntimeConfig(input({ container, sources: { ...sources, secrets: {} }, volumes: {} }))).toThrow(/secret s has no key k/);
  });
});

describe('relocatePorts', () => {
  it('moves the secure port flag, the declared port and both probes; other numbers stay', () => {
    const relocated = relocatePorts({ ...CONTAINER, args: [...CONTAINER.args!, '--concurrent-service-syncs=10258x', '--webhook-port=10260'] }, new Map([[10258, 40001]]));
    expect(relocated.args).toEqual([
      '--cloud-provider=sandbox',
      '--cloud-config=/etc/kubernetes/cloud-config/cloud.conf',
      '--secure-port=40001',
      '--v=2',
      '--concurrent-service-syncs=10258x',
      '--webhook-port=10260',
    ]);
    expect(relocated.ports?.[0]?.containerPort).toBe(40001);
    expect(relocated.livenessProbe?.httpGet?.port).toBe(40001);
    expect(relocated.readinessProbe?.httpGet?.port).toBe(40001);
    expect(CONTAINER.args).toContain('--secure-port=10258');
  });
});

describe('pod spec helpers', () => {
  it.each([
    ['16Mi', 16 * 2 ** 20],
    ['512Mi', 512 * 2 ** 20],
    ['1Gi', 2 ** 30],
    ['128M', 128e6],
    ['1000', 1000],
  ])('parseQuantityBytes(%s) = %i', (text, expected) => {
    expect(parseQuantityBytes(text)).toBe(expected);
  });

  it('parseQuantityBytes refuses garbage', () => {
    expect(() => parseQuantityBytes('lots')).toThrow(/not a Kubernetes quantity/);
  });

  it.each([
    { name: 'the base Deployment', spec: SPEC, expected: [] },
    { name: 'an init container', spec: { ...SPEC, initContainers: [CONTAINER] }, expected: ['initContainers'] },
    { name: 'a hostPath volume', spec: { ...SPEC, volumes: [{ name: 'h', hostPath: { path: '/' } }] }, expected: ['volumes[h] (hostPath: only emptyDir, configMap and secret)'] },
    { name: 'an exec probe', spec: { ...SPEC, containers: [{ ...CONTAINER, livenessProbe: { exec: { command: ['true'] } } }] }, expected: ['containers[cloud-controller-manager].livenessProbe (only httpGet and tcpSocket)'] },
  ])('unsupportedPodFields: $name', ({ spec, expected }) => {
    expect(unsupportedPodFields(spec as PodSpec)).toEqual(expected);
  });
});
