/**
 * One chaos run against one provider: the real kube-apiserver (or the emulator on a laptop
 * without Go), two CCM replicas, each behind its own listeners of two fault-injecting proxies
 * (cloud and kube-apiserver), nodes joining and leaving, LoadBalancer Services created, updated
 * and deleted, cloud faults, watch cuts, 410 on watch resume, the API server unreachable once,
 * the leader SIGKILLed in the middle of a cloud write. Then the faults stop, the scenario waits
 * for convergence and checks the invariants (chaos-invariants.ts) and prints the figures.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_LEASE_NAME, DEFAULT_LEASE_NAMESPACE } from '@ccm/core/api';
import { ARM_FAULTS, AWS_FAULTS, FaultInjectingProxy, GCE_FAULTS, FaultPlan, KUBE_API_FAULTS, kubeOperationOf, OPENSTACK_FAULTS, SANDBOX_FAULTS, seededRandom, VSPHERE_FAULTS, type CloudFaultFlavor, type FaultCounts } from '@ccm/testing/chaos';

import type { CcmProcessSpec, DriverInstance, ProviderDriver } from '@ccm/testing/conformance';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { KubeService, NodeAddress } from '../harness/kube-objects.js';
import { kubeletAddresses, registerNode, setNodeReady } from '../harness/node-registration.js';
import type { CcmInstance, TestCluster } from '../harness/test-cluster.js';
import { waitFor } from '../harness/wait-for.js';
import { loadBalancerService, serviceReference } from '../conformance/scenario-helpers.js';
import { budgetExceedances, peakCallRate, type CallBudget } from './call-budget.js';
import type { ChaosFigures } from './chaos-figures.js';
import { leakedResourceViolations, loadBalancerMismatches, missingRoutes, servicesLeftWithFinalizer, uninitializedNodes, wrongNodeDeletions } from './chaos-invariants.js';
import { isCloudWrite } from './cloud-writes.js';
import { leaseTermViolations, leaseTerms, writesOutsideLeaseTerms } from './lease-terms.js';

export interface ChaosSettings {
  seed: number;
  /** Nodes that join over the run (half at the start). */
  nodes: number;
  /** LoadBalancer Services created over the run (half at the start); ignored without LBs. */
  services: number;
  /** How long faults and churn last. */
  churnMs: number;
  /** Fraction of cloud requests answered with a fault (split over 5xx, throttling, timeouts, resets, slow). */
  cloudFaultRate: number;
  watchCutEveryMs: number;
  /** Fraction of watch resumes answered 410 Gone (Expired). */
  goneOnResumeRate: number;
  apiDownMs: number;
  leaderKills: number;
  /**
   * The CCM's cloud API budget, checked against the calls each replica started (call-budget.ts):
   * configured through the driver where the provider reads it from its cloud config (sandbox's
   * api-qps), else the provider's fixed budget. Without it the peak rate is only reported.
   */
  budget?: CallBudget;
  convergenceTimeoutMs: number;
}

export const SERVICE_SOURCE_RANGES = 'service.beta.kubernetes.io/load-balancer-source-ranges';

/**
 * How late a request may reach the proxy after its budget token was granted (call-budget.ts): the
 * CCMs' event-loop lag reaches several hundred ms on the loaded 2-core machine (docs/performance.md,
 * soak), and Azure's first calls wait for Entra's token (itself faulted) after their grant.
 */
export const CALL_BUDGET_SEND_DELAY_MS = 1_000;

const FLAVORS: Record<string, CloudFaultFlavor> = { sandbox: SANDBOX_FAULTS, aws: AWS_FAULTS, vsphere: VSPHERE_FAULTS, gcp: GCE_FAULTS, azure: ARM_FAULTS, openstack: OPENSTACK_FAULTS };

/** The cloud fault rates: `rate` split 30 % 5xx, 30 % throttling, 10 % timeouts, 10 % resets, 20 % slow. */
export function cloudFaultPlan(seed: number, rate: number): FaultPlan {
  return FaultPlan.uniform(seed, { serverError: rate * 0.3, throttle: rate * 0.3, timeout: rate * 0.1, reset: rate * 0.1, slow: rate * 0.2 });
}

interface Replica {
  label: string;
  instance: CcmInstance;
}

interface LivingNode {
  instance: DriverInstance;
  kubeletAddresses: NodeAddress[];
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The CCM's kubeconfig pointed at the kube proxy's listener for one replica (same token). */
async function replicaKubeconfig(cluster: TestCluster, url: string, certificate: string | undefined, path: string): Promise<void> {
  const config = parseYaml(await readFile(cluster.kubeconfigPath, 'utf8')) as { clusters: Array<{ cluster: Record<string, string> }> };
  for (const entry of config.clusters) {
    entry.cluster['server'] = url;
    if (certificate === undefined) delete entry.cluster['certificate-authority-data'];
    else entry.cluster['certificate-authority-data'] = Buffer.from(certificate).toString('base64');
  }
  await writeFile(path, stringifyYaml(config), { mode: 0o600 });
}

async function kubeUpstream(cluster: TestCluster): Promise<{ url: string; ca?: string }> {
  const config = parseYaml(await readFile(cluster.kubeconfigPath, 'utf8')) as { clusters: Array<{ cluster: Record<string, string> }> };
  const entry = config.clusters[0]?.cluster ?? {};
  const caData = entry['certificate-authority-data'];
  return { url: entry['server'] ?? '', ...(caData === undefined ? {} : { ca: Buffer.from(caData, 'base64').toString('utf8') }) };
}

/**
 * Copies the spec's `--cloud-config` file to a path of this replica's own: the drivers'
 * `benchCcmProcess` reuse one file name, so the next replica's config would replace this one's
 * before the process reads it (and its requests would reach the proxy as the other replica's).
 */
async function pinCloudConfig(spec: CcmProcessSpec, path: string): Promise<CcmProcessSpec> {
  const args = await Promise.all(
    spec.args.map(async (argument) => {
      if (!argument.startsWith('--cloud-config=')) return argument;
      await copyFile(argument.slice('--cloud-config='.length), path);
      return `--cloud-config=${path}`;
    }),
  );
  return { ...spec, args };
}

export class ChaosRun {
  readonly #driver: ProviderDriver;
  readonly #cluster: TestCluster;
  readonly #settings: ChaosSettings;
  readonly #random: () => number;
  readonly #log: string[] = [];
  #cloudProxy!: FaultInjectingProxy;
  #kubeProxy!: FaultInjectingProxy;
  #replicas: Replica[] = [];
  #replicaCounter = 0;
  #supervising = true;
  #leaderKills = 0;
  #killsMidWrite = 0;
  #restarts = 0;
  #nodeCounter = 0;
  #serviceCounter = 0;
  readonly #living = new Map<string, LivingNode>();
  readonly #instanceDeletedAt = new Map<string, number>();
  readonly #services = new Map<string, KubeService>();
  readonly #deletedServices = new Map<string, KubeService>();
  readonly #counts = { joined: 0, left: 0, created: 0, updated: 0, deleted: 0 };
  readonly #runTag: string;

  constructor(driver: ProviderDriver, cluster: TestCluster, settings: ChaosSettings) {
    this.#driver = driver;
    this.#cluster = cluster;
    this.#settings = settings;
    this.#random = seededRandom(settings.seed);
    this.#runTag = `c${settings.seed.toString(36)}${Math.floor(Math.random() * 36 ** 2).toString(36)}`;
  }

  /** What happened, for a failure message. */
  log(): string {
    return this.#log.slice(-60).join('\n');
  }

  #note(message: string): void {
    this.#log.push(`${new Date().toISOString()} ${message}`);
  }

  async run(): Promise<{ figures: ChaosFigures; violations: Record<string, string[]> }> {
    const started = Date.now();
    const driver = this.#driver;
    if (driver.cloudEndpoint === undefined || driver.benchCcmProcess === undefined) throw new Error(`the ${driver.name} driver has no cloudEndpoint/benchCcmProcess: the chaos proxy cannot sit in front of its cloud`);
    const endpoint = driver.cloudEndpoint();
    this.#cloudProxy = new FaultInjectingProxy({
      upstream: endpoint.url,
      ...(endpoint.ca === undefined ? {} : { upstreamCa: endpoint.ca }),
      operationOf: endpoint.operationOf,
      isWrite: isCloudWrite,
      flavor: FLAVORS[driver.name] ?? SANDBOX_FAULTS,
      // Short enough that the CCM's own client timeouts and retries are exercised in a short run.
      timeoutMs: 5_000,
      slowMs: 1_000,
    });
    const kube = await kubeUpstream(this.#cluster);
    this.#kubeProxy = new FaultInjectingProxy({
      upstream: kube.url,
      ...(kube.ca === undefined ? {} : { upstreamCa: kube.ca }),
      operationOf: kubeOperationOf,
      flavor: KUBE_API_FAULTS,
      keepRequestBodyOf: (operation) => operation === 'update leases' || operation === 'create leases',
    });
    try {
      return await this.#run(started);
    } finally {
      this.#supervising = false;
      await Promise.all(this.#replicas.map((replica) => replica.instance.stop().catch(() => undefined)));
      await this.#cloudProxy.close();
      await this.#kubeProxy.close();
    }
  }

  async #run(started: number): Promise<{ figures: ChaosFigures; violations: Record<string, string[]> }> {
    const settings = this.#settings;
    const capabilities = this.#driver.capabilities;
    this.#cloudProxy.setPlan(cloudFaultPlan(settings.seed, settings.cloudFaultRate));
    this.#kubeProxy.setGoneOnResume(settings.goneOnResumeRate, seededRandom(settings.seed + 1));
    await this.#startReplica();
    await this.#startReplica();
    const supervisor = this.#supervise();

    // Half the nodes and Services at once, the rest joins during the churn.
    const initialNodes = Math.ceil(settings.nodes / 2);
    await Promise.all(Array.from({ length: initialNodes }, () => this.#joinNode()));
    if (capabilities.loadBalancer) await Promise.all(Array.from({ length: Math.ceil(settings.services / 2) }, () => this.#createService()));

    const churnStarted = Date.now();
    const watchCutter = setInterval(() => {
      const cut = this.#kubeProxy.cutWatches();
      if (cut > 0) this.#note(`cut ${cut} watches`);
    }, settings.watchCutEveryMs);
    const killTimes = Array.from({ length: settings.leaderKills }, (_, index) => churnStarted + ((index + 0.5) * settings.churnMs) / settings.leaderKills);
    // The API server goes away once, a third into the churn, between two leader kills: on a timer
    // of its own, so that a slow churn step or leader kill (a loaded machine) cannot skip it.
    let apiDownSince: number | undefined;
    const apiDownTimer = setTimeout(() => {
      apiDownSince = Date.now();
      this.#note(`kube-apiserver unreachable for ${settings.apiDownMs} ms`);
      this.#kubeProxy.makeUnreachable(settings.apiDownMs);
    }, settings.churnMs * 0.3);
    try {
      while (Date.now() - churnStarted < settings.churnMs) {
        const nextKill = killTimes[0];
        if (nextKill !== undefined && Date.now() >= nextKill && !(apiDownSince !== undefined && Date.now() < apiDownSince + settings.apiDownMs + 5_000)) {
          killTimes.shift();
          await this.#killLeaderDuringUpdate();
          continue;
        }
        await this.#churnStep();
        await sleep(300);
      }
      // Kills the churn could not place (e.g. a slow start) happen now, before the faults stop.
      for (const _ of killTimes) await this.#killLeaderDuringUpdate();
      // On a loaded machine replicas start slowly: the churn goes on (up to twice its time) until
      // a watch has been cut and a cloud fault injected, so that the run tests what it says.
      const faultsInjected = (): boolean => this.#kubeProxy.faultCounts().watchCut > 0 && Object.values(this.#cloudProxy.faultCounts()).some((count) => count > 0);
      while (!faultsInjected() && Date.now() - churnStarted < 2 * settings.churnMs) {
        await this.#churnStep();
        await sleep(300);
      }
      if (Date.now() - churnStarted > settings.churnMs + 1_000) this.#note(`churn extended to ${Date.now() - churnStarted} ms (faults injected: ${faultsInjected()})`);
    } finally {
      clearInterval(watchCutter);
      clearTimeout(apiDownTimer);
    }

    // Faults stop.
    this.#cloudProxy.setPlan(FaultPlan.none());
    this.#kubeProxy.setGoneOnResume(0, () => 1);
    const faultsStopped = Date.now();
    this.#note('faults stopped; waiting for convergence');
    let violations = await this.#convergenceViolations();
    try {
      await waitFor(
        'the CCM to converge after the faults stopped (every invariant holding)',
        async (observe) => {
          violations = await this.#convergenceViolations();
          const open = Object.values(violations).flat();
          observe(open.slice(0, 20));
          return open.length === 0;
        },
        settings.convergenceTimeoutMs,
        { intervalMs: 1_000, describeContext: () => `${this.log()}\n${this.#cluster.report(60)}` },
      );
    } catch (error) {
      this.#note(`did not converge: ${String(error).slice(0, 2_000)}`);
    }
    const convergenceMs = Date.now() - faultsStopped;

    // History checks: over the whole run.
    const kubeRecords = this.#kubeProxy.records();
    const cloudRecords = this.#cloudProxy.records();
    const terms = leaseTerms(kubeRecords, DEFAULT_LEASE_NAME);
    const outside = writesOutsideLeaseTerms(cloudRecords, terms);
    Object.assign(violations, leaseTermViolations(outside));
    violations['wrong node deletions'] = wrongNodeDeletions(kubeRecords, this.#instanceDeletedAt);
    violations['over the cloud call budget'] = settings.budget === undefined ? [] : budgetExceedances(cloudRecords, settings.budget, 1_000, CALL_BUDGET_SEND_DELAY_MS);

    // Teardown through the CCM: every Service and node deleted, then nothing of the cluster may remain in the cloud.
    const teardown = await this.#tearDownAndFindLeaks();
    violations['leaks'] = leakedResourceViolations(teardown.leaked);
    violations['services not finalized after the teardown'] = teardown.services.map((name) => `service ${name} still exists after the teardown (finalizer not removed)`);
    const dumpDirectory = process.env['CCM_CHAOS_RECORDS'];
    if (dumpDirectory !== undefined && dumpDirectory !== '') {
      // The proxies' records of the whole run (teardown included), for replaying the history checks offline.
      const kube = this.#kubeProxy.records().filter((record) => record.operation.endsWith('leases') || record.operation.includes('services'));
      await writeFile(join(dumpDirectory, `${this.#driver.name}-records.json`), JSON.stringify({ terms, kube, cloud: this.#cloudProxy.records() }, null, 1));
      for (const instance of this.#cluster.ccmInstances()) await writeFile(join(dumpDirectory, `${this.#driver.name}-${instance.label}.log`), instance.process.output());
      if (teardown.leaked.length > 0 || teardown.services.length > 0) await writeFile(join(dumpDirectory, `${this.#driver.name}-cloud-state.json`), JSON.stringify(await this.#driver.leakedResources(), null, 1));
    }
    this.#supervising = false;
    await supervisor;

    const cloudFaults: FaultCounts = this.#cloudProxy.faultCounts();
    const figures: ChaosFigures = {
      provider: this.#driver.name,
      seed: settings.seed,
      nodes: { joined: this.#counts.joined, left: this.#counts.left, final: this.#living.size },
      services: { created: this.#counts.created, updated: this.#counts.updated, deleted: this.#counts.deleted, final: this.#services.size },
      cloudFaults,
      kubeFaults: this.#kubeProxy.faultCounts(),
      cloudRequests: cloudRecords.length,
      cloudRequestsDuringFaults: cloudRecords.filter((record) => record.startedAt < faultsStopped).length,
      cloudWrites: cloudRecords.filter((record) => record.write).length,
      leaderKills: this.#leaderKills,
      leaderKillsMidWrite: this.#killsMidWrite,
      leaseTerms: terms.length,
      replicaRestarts: this.#restarts,
      convergenceMs,
      leaks: violations['leaks'].length + (violations['leaked load balancers of deleted services']?.length ?? 0),
      wrongDeletions: violations['wrong node deletions'].length,
      servicesLeftWithFinalizer: (violations['services left with a finalizer']?.length ?? 0) + (violations['services not finalized after the teardown']?.length ?? 0),
      doubleActing: outside.doubleActing.length,
      writesAfterOwnTerm: outside.afterOwnTerm,
      peakCallsPerSecond: peakCallRate(cloudRecords),
      budget: settings.budget === undefined ? `none configurable for ${this.#driver.name}` : `${settings.budget.qps}/s, burst ${settings.budget.burst} (checked as burst + qps x (1 s + ${CALL_BUDGET_SEND_DELAY_MS} ms send delay) per 1 s window)`,
      budgetExceedances: violations['over the cloud call budget'].length,
      totalMs: Date.now() - started,
    };
    return { figures, violations };
  }

  async #startReplica(): Promise<void> {
    this.#replicaCounter += 1;
    const label = `replica-${this.#replicaCounter}`;
    const cloudUrl = await this.#cloudProxy.listen(label);
    const kubeUrl = await this.#kubeProxy.listen(label);
    const directory = this.#cluster.directory;
    const kubeconfig = join(directory, `${label}.kubeconfig`);
    await replicaKubeconfig(this.#cluster, kubeUrl, this.#kubeProxy.certificate, kubeconfig);
    let caFile: string | undefined;
    if (this.#cloudProxy.certificate !== undefined) {
      caFile = join(directory, 'cloud-proxy-ca.pem');
      await writeFile(caFile, this.#cloudProxy.certificate);
    }
    const spec = await this.#driver.benchCcmProcess!({
      cloudUrl,
      lookupPolicy: 'batched',
      apiQps: this.#settings.budget?.qps ?? 20,
      ...(caFile === undefined ? {} : { caFile }),
    });
    const pinned = await pinCloudConfig(spec, join(directory, `${label}-cloud-config`));
    const instance = await this.#cluster.startCcm(pinned, { label, extraFlags: [`--kubeconfig=${kubeconfig}`], waitUntilHealthy: false });
    this.#replicas.push({ label, instance });
    this.#note(`started ${label}`);
  }

  /** Keeps two replicas running, as a Deployment's ReplicaSet would. */
  async #supervise(): Promise<void> {
    while (this.#supervising) {
      for (const replica of [...this.#replicas]) {
        if (replica.instance.process.isRunning()) continue;
        this.#replicas = this.#replicas.filter((candidate) => candidate !== replica);
        if (replica.instance.expectedRunning) {
          replica.instance.expectedRunning = false;
          this.#note(`${replica.instance.process.describeState()}; replaced`);
        }
        this.#restarts += 1;
        if (this.#supervising) await this.#startReplica();
      }
      await sleep(500);
    }
  }

  /** The replica whose lease writes carried the current holder identity. */
  async #leader(): Promise<Replica | undefined> {
    const lease = await this.#cluster.client.findLease(DEFAULT_LEASE_NAMESPACE, DEFAULT_LEASE_NAME);
    const holder = lease?.spec?.holderIdentity;
    if (!holder) return undefined;
    for (const record of [...this.#kubeProxy.records()].reverse()) {
      if (record.requestBody?.includes(`"holderIdentity":"${holder}"`) === true) return this.#replicas.find((replica) => replica.label === record.replica);
    }
    return undefined;
  }

  /**
   * Changes a Service (or, without LBs, adds a node), and SIGKILLs the leader the moment its
   * next cloud write reaches the proxy: the write is in flight, its answer never read.
   */
  async #killLeaderDuringUpdate(): Promise<void> {
    const leader = await waitFor('a replica to lead', async () => (await this.#leader()) ?? undefined, 30_000, { intervalMs: 250 }).catch(() => undefined);
    if (leader === undefined) {
      this.#note('no leader to kill');
      return;
    }
    let killedMidWrite = false;
    // A provider without load balancers or routes writes little or nothing: kill it during node initialization.
    const writes = this.#driver.capabilities.loadBalancer || this.#driver.capabilities.routes;
    const writeWaitMs = writes ? 15_000 : 2_000;
    const killed = new Promise<void>((resolve) => {
      const unsubscribe = this.#cloudProxy.observe((record) => {
        if (record.replica !== leader.label || !record.write) return;
        unsubscribe();
        leader.instance.expectedRunning = false;
        leader.instance.process.signal('SIGKILL');
        killedMidWrite = true;
        this.#killsMidWrite += 1;
        this.#note(`SIGKILL ${leader.label} during ${record.operation}`);
        resolve();
      });
      setTimeout(() => {
        unsubscribe();
        resolve();
      }, writeWaitMs);
    });
    if (this.#driver.capabilities.loadBalancer && this.#services.size > 0) await this.#updateService(true);
    else await this.#joinNode();
    await killed;
    if (!killedMidWrite) {
      // No cloud write came (a provider that writes nothing, e.g. vSphere without LBs): kill it anyway.
      leader.instance.expectedRunning = false;
      leader.instance.process.signal('SIGKILL');
      this.#note(`SIGKILL ${leader.label} (no cloud write seen within ${writeWaitMs} ms)`);
    }
    await leader.instance.process.waitForExit();
    this.#leaderKills += 1;
  }

  async #churnStep(): Promise<void> {
    const settings = this.#settings;
    const lb = this.#driver.capabilities.loadBalancer;
    const draw = this.#random();
    try {
      // Leaving and deletions keep at least half of what joined or was created, so the end state is not empty.
      if (draw < 0.25 && this.#counts.joined < settings.nodes) await this.#joinNode();
      else if (draw < 0.4 && this.#living.size > Math.max(2, this.#counts.joined / 2)) await this.#leaveNode();
      else if (lb && draw < 0.55 && this.#counts.created < settings.services) await this.#createService();
      else if (lb && draw < 0.85 && this.#services.size > 0) await this.#updateService(false);
      else if (lb && this.#services.size > Math.max(1, this.#counts.created / 2)) await this.#deleteService();
      else if (lb && this.#services.size > 0) await this.#updateService(false);
    } catch (error) {
      this.#note(`churn step failed: ${String(error)}`);
    }
  }

  async #joinNode(): Promise<void> {
    this.#nodeCounter += 1;
    const index = this.#nodeCounter;
    const instance = await this.#driver.createInstance(`chaos-${this.#runTag}-${index}`);
    const options = { name: instance.nodeName, ...(this.#driver.capabilities.routes ? { podCidrs: [`10.244.${index}.0/24`] } : {}) };
    this.#living.set(instance.nodeName, { instance, kubeletAddresses: kubeletAddresses(options) });
    await registerNode(this.#cluster.client, options);
    this.#counts.joined += 1;
  }

  /**
   * The instance of an initialized node is deleted in the cloud and its kubelet stops posting
   * Ready. Only initialized nodes leave: a node without a providerID whose instance is gone
   * cannot be told apart from one the cloud cannot find by name, and the AWS provider
   * deliberately errors rather than say "gone" then (aws-instances.test.ts).
   */
  async #leaveNode(): Promise<void> {
    const initialized = new Set((await this.#cluster.client.listNodes()).filter((node) => node.spec?.providerID).map((node) => node.metadata.name ?? ''));
    const names = [...this.#living.keys()].filter((name) => initialized.has(name));
    if (names.length === 0) return;
    const name = names[Math.floor(this.#random() * names.length)] ?? '';
    const node = this.#living.get(name);
    if (node === undefined) return;
    this.#living.delete(name);
    this.#instanceDeletedAt.set(name, Date.now());
    await this.#driver.deleteInstance(node.instance);
    await setNodeReady(this.#cluster.client, name, false).catch(() => undefined);
    this.#counts.left += 1;
  }

  async #createService(): Promise<void> {
    this.#serviceCounter += 1;
    const name = `chaos-${this.#runTag}-svc-${this.#serviceCounter}`;
    const created = await this.#cluster.client.createService(loadBalancerService(name));
    this.#services.set(name, created);
    this.#counts.created += 1;
  }

  /** Ports, the source-ranges annotation or externalTrafficPolicy, chosen by the seeded PRNG (ports when `ports`). */
  async #updateService(ports: boolean): Promise<void> {
    const names = [...this.#services.keys()];
    const name = names[Math.floor(this.#random() * names.length)] ?? '';
    const current = await this.#cluster.client.getService('default', name);
    const draw = ports ? 0 : this.#random();
    let patch: unknown;
    if (draw < 0.4) {
      const hasHttps = (current.spec?.ports ?? []).some((port) => port.port === 443);
      patch = {
        spec: {
          ports: hasHttps
            ? [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }]
            : [
                { name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 },
                { name: 'https', protocol: 'TCP', port: 443, targetPort: 8443 },
              ],
        },
      };
    } else if (draw < 0.7) {
      const has = current.metadata.annotations?.[SERVICE_SOURCE_RANGES] !== undefined;
      patch = { metadata: { annotations: { [SERVICE_SOURCE_RANGES]: has ? null : '10.0.0.0/8,192.168.0.0/16' } } };
    } else {
      const local = current.spec?.externalTrafficPolicy === 'Local';
      patch = { spec: local ? { externalTrafficPolicy: 'Cluster', healthCheckNodePort: null } : { externalTrafficPolicy: 'Local' } };
    }
    const updated = await this.#cluster.client.patchService('default', name, patch);
    this.#services.set(name, updated);
    this.#counts.updated += 1;
  }

  async #deleteService(): Promise<void> {
    const names = [...this.#services.keys()];
    const name = names[Math.floor(this.#random() * names.length)] ?? '';
    const service = this.#services.get(name);
    if (service === undefined) return;
    this.#services.delete(name);
    this.#deletedServices.set(name, service);
    await this.#cluster.client.deleteService('default', name);
    this.#counts.deleted += 1;
  }

  async #convergenceViolations(): Promise<Record<string, string[]>> {
    const client = this.#cluster.client;
    const nodes = await client.listNodes();
    const services = (await client.listServices('default')).filter((service) => service.metadata.name !== 'kubernetes');
    const violations: Record<string, string[]> = {};
    violations['nodes not initialized'] = uninitializedNodes(nodes, this.#living);
    const leftNodes = nodes.filter((node) => this.#instanceDeletedAt.has(node.metadata.name ?? ''));
    violations['nodes of deleted instances still present'] = leftNodes.map((node) => `node ${node.metadata.name} (instance deleted) still exists`);
    if (this.#driver.capabilities.loadBalancer) {
      const live = services.filter((service) => this.#services.has(service.metadata.name ?? ''));
      const views = await Promise.all(live.map(async (service) => ({ service, view: await this.#driver.readLoadBalancer(serviceReference(service)) })));
      violations['load balancers not matching their Service'] = loadBalancerMismatches(views, nodes);
      violations['services left with a finalizer'] = servicesLeftWithFinalizer(services, new Set(this.#deletedServices.keys()));
      const leaked: string[] = [];
      for (const service of this.#deletedServices.values()) {
        if ((await this.#driver.readLoadBalancer(serviceReference(service))).exists) leaked.push(`load balancer of deleted service ${service.metadata.name}`);
      }
      violations['leaked load balancers of deleted services'] = leaked;
    }
    if (this.#driver.capabilities.routes) {
      const routes = await this.#driver.readRoutes();
      violations['missing routes'] = missingRoutes(nodes, routes);
      const nodeNames = new Set(nodes.map((node) => node.metadata.name ?? ''));
      violations['routes of deleted nodes'] = routes
        .filter((route) => this.#instanceDeletedAt.has(route.targetNodeName) && !nodeNames.has(route.targetNodeName))
        .map((route) => `route ${route.destinationCidr} -> ${route.targetNodeName} (node deleted)`);
    }
    return violations;
  }

  /** Deletes every Service and node through the API; the CCM cleans the cloud; what the driver still finds is leaked. */
  async #tearDownAndFindLeaks(): Promise<{ leaked: string[]; services: string[] }> {
    const client = this.#cluster.client;
    for (const name of this.#services.keys()) await client.deleteService('default', name).catch(() => undefined);
    for (const node of await client.listNodes()) await client.deleteNode(node.metadata.name ?? '').catch(() => undefined);
    let leaked: string[] = [];
    let services: string[] = [];
    await waitFor(
      `${this.#driver.name}: every Service finalized and no cloud resource of the cluster left`,
      async (observe) => {
        const remaining = (await client.listServices('default')).filter((service) => service.metadata.name !== 'kubernetes');
        services = remaining.map((service) => service.metadata.name ?? '');
        leaked = await this.#driver.leakedResources();
        observe({ services, leaked });
        return remaining.length === 0 && leaked.length === 0;
      },
      // The teardown is one more convergence (every Service and node gone at once) and gets the
      // same bound: on OpenStack a sync in flight when it starts (serial Octavia calls, one service
      // worker) took 58 s of a former fixed 60 s in a CI run, before the deletions were reached.
      this.#settings.convergenceTimeoutMs,
      { intervalMs: 500 },
    ).catch((error: unknown) => this.#note(`teardown: ${String(error).slice(0, 1_000)}`));
    return { leaked, services };
  }
}

