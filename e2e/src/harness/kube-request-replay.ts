import type { RecordedKubeRequest } from './kube-api-proxy.js';

/** One way the emulator answered a replayed request differently from the real kube-apiserver. */
export interface ReplayDifference {
  sequence: number;
  client: string;
  request: string;
  /** `status 200 != 404`, or `<field path>: <real> != <emulator>`. */
  difference: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Marks a value the two servers allocate independently (cluster IPs, node ports): only its presence counts. */
const ALLOCATED = '<allocated>';

/**
 * The fields of an object that the CCM (and the harness's assertions) read, per resource; the
 * rest (resourceVersion, uid, timestamps the server stamps, managedFields) differs between any
 * two servers and is not compared. Values the servers allocate are compared by presence.
 */
export function ccmView(object: Json): Json {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return object;
  const kind = typeof object['kind'] === 'string' ? object['kind'] : undefined;
  const metadata = (object['metadata'] ?? {}) as Record<string, Json>;
  const view: Record<string, Json> = {
    kind: kind ?? null,
    name: metadata['name'] ?? null,
    namespace: metadata['namespace'] ?? null,
    labels: metadata['labels'] ?? null,
    annotations: metadata['annotations'] ?? null,
    finalizers: metadata['finalizers'] ?? null,
    deleting: metadata['deletionTimestamp'] !== undefined,
  };
  const spec = (object['spec'] ?? {}) as Record<string, Json>;
  const status = (object['status'] ?? {}) as Record<string, Json>;
  switch (kind) {
    case 'Node':
      view['spec'] = pick(spec, ['providerID', 'podCIDR', 'podCIDRs', 'taints', 'unschedulable']);
      view['status'] = {
        addresses: status['addresses'] ?? null,
        conditions: ((status['conditions'] ?? []) as Array<Record<string, Json>>).map((condition) => pick(condition, ['type', 'status', 'reason'])),
      };
      break;
    case 'Service':
      view['spec'] = {
        ...pick(spec, [
          'type', 'externalTrafficPolicy', 'internalTrafficPolicy', 'loadBalancerClass', 'loadBalancerIP', 'loadBalancerSourceRanges',
          'ipFamilies', 'ipFamilyPolicy', 'sessionAffinity', 'allocateLoadBalancerNodePorts', 'selector',
        ]),
        clusterIP: spec['clusterIP'] === undefined ? null : spec['clusterIP'] === 'None' ? 'None' : ALLOCATED,
        // The API server's own Service points at its port, which differs between any two servers.
        ...(view['name'] === 'kubernetes' && view['namespace'] === 'default' ? { apiServerService: true } : {}),
        healthCheckNodePort: spec['healthCheckNodePort'] === undefined ? null : ALLOCATED,
        ports: ((spec['ports'] ?? []) as Array<Record<string, Json>>).map((port) => ({
          ...pick(port, ['name', 'protocol', 'port', 'appProtocol']),
          targetPort: view['name'] === 'kubernetes' && view['namespace'] === 'default' ? ALLOCATED : (port['targetPort'] ?? null),
          nodePort: port['nodePort'] === undefined ? null : ALLOCATED,
        })),
      };
      view['status'] = pick(status, ['loadBalancer', 'conditions']);
      break;
    case 'Lease':
      view['spec'] = pick(spec, ['holderIdentity', 'leaseDurationSeconds', 'leaseTransitions']);
      break;
    case 'Event':
      view['event'] = pick(object as Record<string, Json>, ['type', 'reason', 'message', 'count', 'source', 'reportingComponent']);
      view['involvedObject'] = pick((object['involvedObject'] ?? {}) as Record<string, Json>, ['kind', 'name', 'namespace']);
      break;
    case 'Status':
      return pick(object as Record<string, Json>, ['kind', 'status', 'reason', 'code']);
    default:
      if (Array.isArray(object['items'])) {
        const items = (object['items'] as Json[]).filter((item) => !isApiServerOwnEvent(item));
        return { kind: kind ?? null, items: items.map((item) => ccmView(withKind(item, kind))) };
      }
  }
  return view;
}

/**
 * Components of kube-apiserver itself that write Events (its IP allocator repair loop reports the
 * `kubernetes` Service at start-up). Neither the CCM nor the harness writes or reads them; an
 * emulator has no such loops, so they are left out of the comparison.
 */
export const API_SERVER_EVENT_COMPONENTS: readonly string[] = ['ipallocator-repair-controller', 'portallocator-repair-controller'];

function isApiServerOwnEvent(item: Json): boolean {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return false;
  const reporting = item['reportingComponent'];
  const source = (item['source'] as Record<string, Json> | undefined)?.['component'];
  return API_SERVER_EVENT_COMPONENTS.includes(String(reporting)) || API_SERVER_EVENT_COMPONENTS.includes(String(source));
}

function withKind(item: Json, listKind: string | undefined): Json {
  if (item === null || typeof item !== 'object' || Array.isArray(item) || item['kind'] !== undefined || listKind === undefined) return item;
  return { ...item, kind: listKind.replace(/List$/, '') };
}

function pick(object: Record<string, Json>, keys: string[]): Record<string, Json> {
  const picked: Record<string, Json> = {};
  for (const key of keys) if (object[key] !== undefined) picked[key] = object[key];
  return picked;
}

/** Field paths where two views differ, `path: real != emulator`. */
export function diffViews(real: Json, emulator: Json, path = ''): string[] {
  if (JSON.stringify(real) === JSON.stringify(emulator)) return [];
  const bothObjects = real !== null && emulator !== null && typeof real === 'object' && typeof emulator === 'object' && Array.isArray(real) === Array.isArray(emulator);
  if (!bothObjects) return [`${path || '.'}: ${JSON.stringify(real)} != ${JSON.stringify(emulator)}`];
  const keys = new Set([...Object.keys(real as object), ...Object.keys(emulator as object)]);
  const differences: string[] = [];
  for (const key of keys) {
    differences.push(...diffViews((real as Record<string, Json>)[key] ?? null, (emulator as Record<string, Json>)[key] ?? null, `${path}${Array.isArray(real) ? `[${key}]` : `.${key}`}`));
  }
  return differences;
}

/**
 * Resource versions and UIDs differ between servers: this table learns, from the answers to the
 * same request, which emulator value stands for which real one, and rewrites them in later
 * requests (query `resourceVersion`, body fields `resourceVersion` and `uid`).
 */
export class ServerIdentityMap {
  private readonly realToEmulator = new Map<string, string>();
  /** Real values learned from an object (not from a list's collection version). */
  private readonly objectValues = new Set<string>();

  learn(real: Json, emulator: Json): void {
    if (real === null || emulator === null || typeof real !== 'object' || typeof emulator !== 'object' || Array.isArray(real) || Array.isArray(emulator)) return;
    // A list's resourceVersion is the server's latest revision, which may equal the version of the
    // object written last on one server but not on the other: an object's own version wins.
    const isList = Array.isArray(real['items']);
    for (const field of ['resourceVersion', 'uid']) {
      const realValue = (real['metadata'] as Record<string, Json> | undefined)?.[field];
      const emulatorValue = (emulator['metadata'] as Record<string, Json> | undefined)?.[field];
      if (typeof realValue !== 'string' || typeof emulatorValue !== 'string') continue;
      if (isList && this.objectValues.has(realValue)) continue;
      this.realToEmulator.set(realValue, emulatorValue);
      if (!isList) this.objectValues.add(realValue);
    }
    if (Array.isArray(real['items']) && Array.isArray(emulator['items'])) {
      const emulatorByName = new Map<string, Json>();
      for (const item of emulator['items']) {
        const name = nameOf(item);
        if (name !== undefined) emulatorByName.set(name, item);
      }
      for (const item of real['items']) {
        const name = nameOf(item);
        if (name !== undefined && emulatorByName.has(name)) this.learn(item, emulatorByName.get(name)!);
      }
    }
  }

  /** The emulator's value for a real one; unknown values are kept ("0" and "" mean the same on both). */
  translate(version: string): string {
    return this.realToEmulator.get(version) ?? version;
  }

  translateUrl(url: string): string {
    const parsed = new URL(url, 'http://replay');
    for (const key of ['resourceVersion']) {
      const value = parsed.searchParams.get(key);
      if (value !== null) parsed.searchParams.set(key, this.translate(value));
    }
    return `${parsed.pathname}${parsed.search}`;
  }

  translateBody(body: string): string {
    if (body === '') return body;
    let parsed: Json;
    try {
      parsed = JSON.parse(body) as Json;
    } catch {
      return body;
    }
    const rewrite = (value: Json): Json => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (value === null || typeof value !== 'object') return value;
      const copy: Record<string, Json> = {};
      for (const [key, inner] of Object.entries(value)) copy[key] = (key === 'resourceVersion' || key === 'uid') && typeof inner === 'string' ? this.translate(inner) : rewrite(inner);
      return copy;
    };
    return JSON.stringify(rewrite(parsed));
  }
}

function nameOf(item: Json): string | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const metadata = item['metadata'] as Record<string, Json> | undefined;
  const name = metadata?.['name'];
  return typeof name === 'string' ? `${String(metadata?.['namespace'] ?? '')}/${name}` : undefined;
}

function parseJson(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** Two requests overlapped in time: neither answer came before the other was sent. */
function overlaps(left: RecordedKubeRequest, right: RecordedKubeRequest): boolean {
  return left.startedAt < right.sequence && right.startedAt < left.sequence;
}

const isRead = (request: RecordedKubeRequest): boolean => request.method === 'GET' && !request.watch;

/** The object a request addresses: its path without the query and the `/status` subresource. */
const objectPath = (request: RecordedKubeRequest): string => request.url.split('?')[0]!.replace(/\/status$/, '');

/**
 * The order to replay in: completion order, except that a write the real server refused with a
 * Conflict (409) goes after every write to the same object that was in flight with it and
 * succeeded later, and a write that succeeded goes before a DELETE of its object it was in flight
 * with. Completion order is not the server's order: the server may apply a write,
 * refuse a concurrent one because of it and send that refusal before the first write's answer
 * is out. Replayed before it, the refused write would succeed.
 */
export function replayOrder(requests: readonly RecordedKubeRequest[]): RecordedKubeRequest[] {
  const ordered = [...requests].sort((left, right) => left.sequence - right.sequence);
  const isWrite = (request: RecordedKubeRequest): boolean => !isRead(request) && !request.watch;
  for (let index = 0; index < ordered.length; index++) {
    const refused = ordered[index]!;
    if (!isWrite(refused) || refused.status !== 409) continue;
    let lastWinner = -1;
    for (let later = index + 1; later < ordered.length; later++) {
      const other = ordered[later]!;
      if (isWrite(other) && other.status < 300 && objectPath(other) === objectPath(refused) && overlaps(other, refused)) lastWinner = later;
    }
    if (lastWinner < 0) continue;
    ordered.splice(index, 1);
    ordered.splice(lastWinner, 0, refused);
    index--;
  }
  // A write that succeeded was applied before a DELETE of the same object it was in flight with,
  // even when the DELETE's answer came first: replayed after it, it would meet NotFound.
  for (let index = 0; index < ordered.length; index++) {
    const applied = ordered[index]!;
    if (!isWrite(applied) || applied.method === 'DELETE' || applied.status >= 300) continue;
    const firstDelete = ordered.findIndex((other, position) => position < index && other.method === 'DELETE' && other.status < 300 && objectPath(other) === objectPath(applied) && overlaps(other, applied));
    if (firstDelete < 0) continue;
    ordered.splice(index, 1);
    ordered.splice(firstDelete, 0, applied);
  }
  return ordered;
}

interface SentRequest {
  status: number;
  text: string;
}

/**
 * Sends the recorded requests, in their order of completion, to another API server (the emulator)
 * and lists every answer that differs from the real kube-apiserver's: the status code, and the
 * fields the CCM reads. Watches are opened and closed once their headers arrive. A read that was
 * in flight together with writes may have seen the state before or after any of them: it passes
 * when the emulator gives the same answer at one of those points.
 */
export async function replayRequests(baseUrl: string, requests: readonly RecordedKubeRequest[]): Promise<ReplayDifference[]> {
  const ordered = replayOrder(requests);
  const identities = new ServerIdentityMap();
  const differences: ReplayDifference[] = [];
  /** Answers of reads taken before a write they overlapped was replayed (candidates for that read). */
  const earlierAnswers = new Map<RecordedKubeRequest, SentRequest[]>();
  /** Reads whose answer differed and that overlap writes still to come. */
  const pending = new Map<RecordedKubeRequest, { writes: Set<RecordedKubeRequest>; differences: ReplayDifference[] }>();

  const send = async (recorded: RecordedKubeRequest): Promise<SentRequest | string> => {
    const url = identities.translateUrl(recorded.url);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (recorded.contentType !== undefined) headers['content-type'] = recorded.contentType;
    const body = recorded.body === '' ? undefined : identities.translateBody(recorded.body);
    const abort = new AbortController();
    try {
      const response = await fetch(`${baseUrl}${url}`, { method: recorded.method, headers, signal: abort.signal, ...(body === undefined ? {} : { body }) });
      if (recorded.watch) {
        abort.abort();
        return { status: response.status, text: '' };
      }
      return { status: response.status, text: await response.text() };
    } catch (error) {
      return `the emulator did not answer: ${String(error)}`;
    }
  };

  const compare = (recorded: RecordedKubeRequest, answer: SentRequest): string[] => {
    if (answer.status !== recorded.status) return [`status ${recorded.status} != ${answer.status}${answer.text ? `: ${answer.text.slice(0, 300)}` : ''}`];
    if (recorded.watch) return [];
    const real = parseJson(recorded.responseBody);
    const emulator = parseJson(answer.text);
    if (real === undefined || emulator === undefined) return [];
    return diffViews(ccmView(real), ccmView(emulator));
  };

  for (const [index, recorded] of ordered.entries()) {
    const describe = `${recorded.method} ${recorded.url}`;
    if (!isRead(recorded) && !recorded.watch) {
      // Reads still to be replayed that overlapped this write may have seen the state before it.
      for (const later of ordered.slice(index + 1)) {
        if (!isRead(later) || !overlaps(later, recorded)) continue;
        const answer = await send(later);
        if (typeof answer !== 'string') earlierAnswers.set(later, [...(earlierAnswers.get(later) ?? []), answer]);
      }
    }
    const answer = await send(recorded);
    if (typeof answer === 'string') {
      differences.push({ sequence: recorded.sequence, client: recorded.client, request: describe, difference: answer });
      continue;
    }
    let found = compare(recorded, answer);
    if (found.length > 0 && isRead(recorded) && (earlierAnswers.get(recorded) ?? []).some((earlier) => compare(recorded, earlier).length === 0)) found = [];
    if (found.length === 0) {
      const real = parseJson(recorded.responseBody);
      const emulator = parseJson(answer.text);
      if (real !== undefined && emulator !== undefined) identities.learn(real, emulator);
    }
    const asDifferences = found.map((difference) => ({ sequence: recorded.sequence, client: recorded.client, request: describe, difference }));
    const laterWrites = isRead(recorded) ? ordered.slice(index + 1).filter((other) => !isRead(other) && !other.watch && overlaps(other, recorded)) : [];
    if (asDifferences.length > 0 && laterWrites.length > 0) pending.set(recorded, { writes: new Set(laterWrites), differences: asDifferences });
    else differences.push(...asDifferences);

    // A read that differed may have seen the state after a write it overlapped: read again.
    if (!isRead(recorded) && !recorded.watch) {
      for (const [read, waiting] of pending) {
        if (!waiting.writes.delete(recorded)) continue;
        const again = await send(read);
        if (typeof again !== 'string' && compare(read, again).length === 0) pending.delete(read);
        else if (waiting.writes.size === 0) {
          differences.push(...waiting.differences);
          pending.delete(read);
        }
      }
    }
  }
  for (const waiting of pending.values()) differences.push(...waiting.differences);
  return differences.sort((left, right) => left.sequence - right.sequence);
}
