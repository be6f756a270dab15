/**
 * A small typed VIM (vSphere Web Services, SOAP) client: the calls a cloud provider needs.
 * Sessions are handled by `VimSession` (lazy login, re-login on NotAuthenticated, keep-alive).
 */
import type { Dispatcher } from 'undici';
import type { VsphereCredentialsProvider } from '../credentials.js';
import { defaultHttpFetch, silentLogger, type HttpFetch, type VsphereClientLogger } from '../http/http-fetch.js';
import { SoapTransport } from '../soap/soap-transport.js';
import { VsphereError } from '../vsphere-error.js';
import type { XmlObject } from '../xml/parse-xml.js';
import { child, children, textOf } from '../xml/xml-node.js';
import { xmlOptionalText, xmlText } from '../xml/xml-writer.js';
import { buildInventoryPaths, type DatacenterInfo } from './inventory-paths.js';
import { managedObjectReferenceXml, readManagedObjectReference, type ManagedObjectReference } from './managed-object-reference.js';
import {
  propertyFilterSpecXml,
  readRetrieveResult,
  retrieveOptionsXml,
  type ObjectContent,
  type PropertyFilterSpec,
  type RetrieveResult,
} from './property-collector-specs.js';
import type { ServiceContent, UserSession } from './service-content.js';
import { decodeVirtualMachine, VIRTUAL_MACHINE_PROPERTY_PATHS, type VirtualMachineProperties } from './virtual-machine-properties.js';
import { VimSession, errorMessage } from './vim-session.js';

export interface VimClientOptions {
  /** `https://vcenter.example.com[:port]`; the SOAP endpoint is `<server>/sdk`. */
  server: string;
  credentials: VsphereCredentialsProvider;
  /** An undici dispatcher carrying the TLS settings (see `createVsphereDispatcher`). */
  dispatcher?: Dispatcher;
  fetch?: HttpFetch;
  /** Per HTTP request. Default 60 s. */
  requestTimeoutMs?: number;
  /** Attempts for transient failures (govmomi `soapRoundtripCount`). Default 3. */
  roundTripCount?: number;
  /** Base delay between attempts (multiplied by the attempt number). Default 500 ms. */
  retryDelayMs?: number;
  /** Checks the session this often and logs in again when it expired; 0 disables. Default 5 min. */
  keepAliveIntervalMs?: number;
  userAgent?: string;
  logger?: VsphereClientLogger;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

export interface SearchScope extends CallOptions {
  /** Limit the search to one datacenter. */
  datacenter?: ManagedObjectReference | undefined;
}

/** One entity of an ancestor chain. */
export interface EntityInfo {
  reference: ManagedObjectReference;
  name: string;
  parent: ManagedObjectReference | undefined;
}

export interface RetrieveOptions extends CallOptions {
  /** Page size hint; the server may return fewer per page (`token` pages are followed). */
  maxObjects?: number;
}

/** Traversal from a folder to its children, recursively (finds datacenters in nested folders). */
const FOLDER_TRAVERSAL = { name: 'folderTraversal', type: 'Folder', path: 'childEntity', skip: false, selectSet: [{ name: 'folderTraversal' }] };
/** Traversal from an entity to its parent, recursively (mo.Ancestors). */
const PARENT_TRAVERSAL = { name: 'parentTraversal', type: 'ManagedEntity', path: 'parent', skip: false, selectSet: [{ name: 'parentTraversal' }] };

/** From a ContainerView to the objects it holds (the view itself is skipped). */
const CONTAINER_VIEW_TRAVERSAL = { name: 'viewTraversal', type: 'ContainerView', path: 'view', skip: false };

export interface ContainerViewOptions extends CallOptions {
  /** Include objects in nested containers (folders, clusters, resource pools). Default true. */
  recursive?: boolean;
}

export class VimClient {
  readonly server: string;
  readonly #session: VimSession;
  readonly #logger: VsphereClientLogger;

  constructor(options: VimClientOptions) {
    const url = new URL(options.server.includes('://') ? options.server : `https://${options.server}`);
    this.server = url.host;
    const logger = options.logger ?? silentLogger;
    this.#logger = logger;
    const transport = new SoapTransport({
      endpoint: `${url.protocol}//${url.host}/sdk`,
      fetch: options.fetch ?? defaultHttpFetch,
      dispatcher: options.dispatcher,
      requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
      userAgent: options.userAgent ?? 'ccm-vsphere-client',
    });
    this.#session = new VimSession({
      transport,
      credentials: options.credentials,
      roundTripCount: options.roundTripCount ?? 3,
      retryDelayMs: options.retryDelayMs ?? 500,
      keepAliveIntervalMs: options.keepAliveIntervalMs ?? 300_000,
      logger,
      serverName: url.host,
    });
  }

  retrieveServiceContent(options: CallOptions = {}): Promise<ServiceContent> {
    return this.#session.serviceContent(options.signal);
  }

  /** Logs in (normally not needed: the first call does it). Throws `InvalidLogin` on bad credentials. */
  login(options: CallOptions = {}): Promise<UserSession> {
    return this.#session.login(options.signal);
  }

  logout(options: CallOptions = {}): Promise<void> {
    return this.#session.logout(options.signal);
  }

  /** Logs out and stops background work. */
  close(): Promise<void> {
    return this.#session.close();
  }

  /** The session as the server sees it (SessionManager.currentSession); undefined when gone. */
  currentSession(options: CallOptions = {}): Promise<UserSession | undefined> {
    return this.#session.currentSession(options.signal);
  }

  /** SearchIndex.FindByUuid; the UUID is matched exactly as given (vCenter stores lower case). */
  async findByUuid(uuid: string, options: SearchScope & { vmSearch?: boolean; instanceUuid?: boolean } = {}): Promise<ManagedObjectReference | undefined> {
    const response = await this.#search('FindByUuid', options, [
      xmlText('uuid', uuid),
      xmlText('vmSearch', options.vmSearch ?? true),
      xmlOptionalText('instanceUuid', options.instanceUuid),
    ]);
    return readManagedObjectReference(child(response, 'returnval'));
  }

  /** SearchIndex.FindAllByDnsName (VMs: `guest.hostName`). */
  async findAllByDnsName(dnsName: string, options: SearchScope & { vmSearch?: boolean } = {}): Promise<ManagedObjectReference[]> {
    const response = await this.#search('FindAllByDnsName', options, [xmlText('dnsName', dnsName), xmlText('vmSearch', options.vmSearch ?? true)]);
    return references(response);
  }

  /** SearchIndex.FindByIp (VMs: `guest.ipAddress`). */
  async findByIp(ip: string, options: SearchScope & { vmSearch?: boolean } = {}): Promise<ManagedObjectReference | undefined> {
    const response = await this.#search('FindByIp', options, [xmlText('ip', ip), xmlText('vmSearch', options.vmSearch ?? true)]);
    return readManagedObjectReference(child(response, 'returnval'));
  }

  /** SearchIndex.FindAllByIp. */
  async findAllByIp(ip: string, options: SearchScope & { vmSearch?: boolean } = {}): Promise<ManagedObjectReference[]> {
    const response = await this.#search('FindAllByIp', options, [xmlText('ip', ip), xmlText('vmSearch', options.vmSearch ?? true)]);
    return references(response);
  }

  /** SearchIndex.FindByInventoryPath (`DC0/vm/folder/name`, no leading slash). */
  async findByInventoryPath(inventoryPath: string, options: CallOptions = {}): Promise<ManagedObjectReference | undefined> {
    const content = await this.#session.serviceContent(options.signal);
    const response = await this.#session.invoke(
      'FindByInventoryPath',
      managedObjectReferenceXml('_this', content.searchIndex) + xmlText('inventoryPath', inventoryPath),
      { signal: options.signal },
    );
    return readManagedObjectReference(child(response, 'returnval'));
  }

  /**
   * PropertyCollector.RetrievePropertiesEx, following `ContinueRetrievePropertiesEx` pages.
   * A session that expired mid-way shows up as NotAuthenticated in `missingSet`; that triggers
   * a re-login and a retry like a NotAuthenticated fault.
   */
  async retrieveProperties(specs: readonly PropertyFilterSpec[], options: RetrieveOptions = {}): Promise<ObjectContent[]> {
    const content = await this.#session.serviceContent(options.signal);
    const first = await this.#retrievePage(
      'RetrievePropertiesEx',
      managedObjectReferenceXml('_this', content.propertyCollector) + specs.map((spec) => propertyFilterSpecXml(spec)).join('') + retrieveOptionsXml(options.maxObjects),
      options.signal,
    );
    const objects = [...first.objects];
    let token = first.token;
    while (token !== undefined) {
      const page = await this.#retrievePage(
        'ContinueRetrievePropertiesEx',
        managedObjectReferenceXml('_this', content.propertyCollector) + xmlText('token', token),
        options.signal,
      );
      objects.push(...page.objects);
      token = page.token;
    }
    return objects;
  }

  async #retrievePage(method: string, parametersXml: string, signal: AbortSignal | undefined): Promise<RetrieveResult> {
    let result: RetrieveResult | undefined;
    await this.#session.invoke(method, parametersXml, {
      signal,
      inspect: (response) => {
        const page = readRetrieveResult(method, child(response, 'returnval'));
        const unauthenticated = page.objects.find((object) => object.missing.some((missing) => missing.kind === 'NotAuthenticated'));
        if (unauthenticated !== undefined) {
          throw new VsphereError(`${method}: NotAuthenticated (in missingSet of ${unauthenticated.obj.type}:${unauthenticated.obj.value})`, {
            kind: 'NotAuthenticated',
            operation: method,
            faultType: 'NotAuthenticated',
          });
        }
        result = page;
      },
    });
    return result ?? { token: undefined, objects: [] };
  }

  /**
   * Properties of many VMs in one RetrievePropertiesEx call. VMs that do not exist (any more)
   * are absent from the result (`reportMissingObjectsInResults`), not a fault for the batch.
   */
  async retrieveVirtualMachines(
    references: readonly ManagedObjectReference[],
    paths: readonly string[] = VIRTUAL_MACHINE_PROPERTY_PATHS,
    options: RetrieveOptions = {},
  ): Promise<VirtualMachineProperties[]> {
    if (references.length === 0) return [];
    const objects = await this.retrieveProperties(
      [
        {
          propSet: [{ type: 'VirtualMachine', paths }],
          objectSet: references.map((reference) => ({ obj: reference })),
          reportMissingObjectsInResults: true,
        },
      ],
      options,
    );
    return objects
      .filter((object) => !(object.properties.size === 0 && object.missing.some((missing) => missing.kind === 'ManagedObjectNotFound')))
      .map(decodeVirtualMachine);
  }

  /**
   * ViewManager.CreateContainerView: a view of the objects of `types` (`VirtualMachine`) inside
   * `container` (a Folder, Datacenter, ComputeResource, ResourcePool or HostSystem). The view
   * belongs to the session: destroy it with `destroyView` (a logout drops it too).
   */
  async createContainerView(container: ManagedObjectReference, types: readonly string[], options: ContainerViewOptions = {}): Promise<ManagedObjectReference> {
    const content = await this.#session.serviceContent(options.signal);
    if (content.viewManager === undefined) {
      throw new VsphereError(`CreateContainerView: ${this.server} has no ViewManager`, { kind: 'InvalidResponse', operation: 'CreateContainerView' });
    }
    const response = await this.#session.invoke(
      'CreateContainerView',
      managedObjectReferenceXml('_this', content.viewManager) +
        managedObjectReferenceXml('container', container) +
        types.map((type) => xmlText('type', type)).join('') +
        xmlText('recursive', options.recursive ?? true),
      { signal: options.signal },
    );
    const view = readManagedObjectReference(child(response, 'returnval'));
    if (view === undefined) throw new VsphereError('CreateContainerView: the answer has no view', { kind: 'InvalidResponse', operation: 'CreateContainerView' });
    return view;
  }

  /** View.DestroyView. */
  async destroyView(view: ManagedObjectReference, options: CallOptions = {}): Promise<void> {
    await this.#session.invoke('DestroyView', managedObjectReferenceXml('_this', view), { signal: options.signal });
  }

  /**
   * Properties (`paths`) of every object of `type` inside `container`, recursively: a container
   * view is created, read in pages (RetrievePropertiesEx, then ContinueRetrievePropertiesEx while
   * the server returns a token; `maxObjects` is the page size hint) and destroyed, also when the
   * read failed. Calls: CreateContainerView, one per page, DestroyView.
   */
  async retrieveContainerContents(container: ManagedObjectReference, type: string, paths: readonly string[], options: RetrieveOptions = {}): Promise<ObjectContent[]> {
    const view = await this.createContainerView(container, [type], options);
    let objects: ObjectContent[];
    try {
      objects = await this.retrieveProperties(
        [{ propSet: [{ type, paths }], objectSet: [{ obj: view, skip: true, selectSet: [CONTAINER_VIEW_TRAVERSAL] }] }],
        options,
      );
    } catch (error) {
      // Not tied to the caller's signal: an aborted read still releases its view.
      await this.destroyView(view).catch((destroyError: unknown) => this.#logger.debug('DestroyView failed after a failed read', { view: key(view), error: errorMessage(destroyError) }));
      throw error;
    }
    await this.destroyView(view).catch((error: unknown) => this.#logger.warn('DestroyView failed; the view lives until the session ends', { view: key(view), error: errorMessage(error) }));
    return objects;
  }

  /** `retrieveContainerContents` for the VirtualMachines inside `container`, decoded. */
  async retrieveVirtualMachinesIn(
    container: ManagedObjectReference,
    paths: readonly string[] = VIRTUAL_MACHINE_PROPERTY_PATHS,
    options: RetrieveOptions = {},
  ): Promise<VirtualMachineProperties[]> {
    return (await this.retrieveContainerContents(container, 'VirtualMachine', paths, options)).map(decodeVirtualMachine);
  }

  /**
   * The entity and every ancestor up to the root folder, nearest first
   * (`[host, cluster, host folder, datacenter, root folder]`), in one call.
   */
  async ancestors(reference: ManagedObjectReference, options: CallOptions = {}): Promise<EntityInfo[]> {
    const objects = await this.retrieveProperties(
      [{ propSet: [{ type: 'ManagedEntity', paths: ['name', 'parent'] }], objectSet: [{ obj: reference, selectSet: [PARENT_TRAVERSAL] }] }],
      options,
    );
    const byKey = new Map(objects.map((object) => [key(object.obj), entityInfo(object)]));
    const chain: EntityInfo[] = [];
    let current: ManagedObjectReference | undefined = reference;
    while (current !== undefined && chain.length < 64) {
      const entity = byKey.get(key(current));
      if (entity === undefined) break;
      chain.push(entity);
      current = entity.parent;
    }
    if (chain.length === 0) {
      throw new VsphereError(`ancestors: ${key(reference)} was not found`, { kind: 'ManagedObjectNotFound', operation: 'RetrievePropertiesEx', object: key(reference) });
    }
    return chain;
  }

  /** Every datacenter with its inventory path (`/DC0`, `/F0/DC1`), in one call. */
  async listDatacenters(options: CallOptions = {}): Promise<DatacenterInfo[]> {
    const content = await this.#session.serviceContent(options.signal);
    const objects = await this.retrieveProperties(
      [
        {
          propSet: [
            { type: 'Folder', paths: ['name', 'parent'] },
            { type: 'Datacenter', paths: ['name', 'parent'] },
          ],
          objectSet: [{ obj: content.rootFolder, selectSet: [FOLDER_TRAVERSAL] }],
        },
      ],
      options,
    );
    return buildInventoryPaths(objects.map(entityInfo), content.rootFolder);
  }

  /**
   * A datacenter by name (`DC0`) or inventory path (`/F0/DC1`, `F0/DC1`), as govc/govmomi's
   * finder accepts them. Undefined when none matches; `InvalidArgument` when a bare name is
   * ambiguous (two folders hold a datacenter with that name).
   */
  async findDatacenter(nameOrPath: string, options: CallOptions = {}): Promise<DatacenterInfo | undefined> {
    const datacenters = await this.listDatacenters(options);
    if (nameOrPath.includes('/')) {
      const wanted = nameOrPath.startsWith('/') ? nameOrPath : `/${nameOrPath}`;
      return datacenters.find((datacenter) => datacenter.path === wanted);
    }
    const matches = datacenters.filter((datacenter) => datacenter.name === nameOrPath);
    if (matches.length > 1) {
      throw new VsphereError(`datacenter name ${JSON.stringify(nameOrPath)} is ambiguous: ${matches.map((match) => match.path).join(', ')}; use the inventory path`, {
        kind: 'InvalidArgument',
        operation: 'findDatacenter',
      });
    }
    return matches[0];
  }

  async #search(method: string, scope: SearchScope, parameters: string[]): Promise<XmlObject> {
    const content = await this.#session.serviceContent(scope.signal);
    const datacenter = scope.datacenter === undefined ? '' : managedObjectReferenceXml('datacenter', scope.datacenter);
    return this.#session.invoke(method, managedObjectReferenceXml('_this', content.searchIndex) + datacenter + parameters.join(''), { signal: scope.signal });
  }
}

function references(response: XmlObject): ManagedObjectReference[] {
  return children(response, 'returnval')
    .map((node) => readManagedObjectReference(node))
    .filter((reference): reference is ManagedObjectReference => reference !== undefined);
}

function key(reference: ManagedObjectReference): string {
  return `${reference.type}:${reference.value}`;
}

function entityInfo(object: ObjectContent): EntityInfo {
  return {
    reference: object.obj,
    name: textOf(object.properties.get('name')) ?? '',
    parent: readManagedObjectReference(object.properties.get('parent')),
  };
}
