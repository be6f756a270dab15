import type { InstanceStore } from './instance-store.js';
import { SandboxCloudError } from './sandbox-cloud-error.js';
import type { CreateRouteRequest, SandboxRoute, TagFilter } from './sandbox-types.js';
import { matchesTags, requireNonEmptyString, validateCidr, validateTags } from './sandbox-validation.js';

interface RouteRecord {
  id: string;
  destinationCidr: string;
  targetInstanceId: string;
  explicitBlackhole: boolean;
  description: string;
  tags: Record<string, string>;
}

/** The route table of the sandbox cloud: one route per destination CIDR. */
export class RouteStore {
  readonly #instances: InstanceStore;
  readonly #routes = new Map<string, RouteRecord>();
  #counter = 0;

  constructor(instances: InstanceStore) {
    this.#instances = instances;
  }

  /** Fails with AlreadyExists when the table already has a route for the destination. */
  create(request: CreateRouteRequest): SandboxRoute {
    validateCidr('destinationCidr', request.destinationCidr);
    const targetInstanceId = requireNonEmptyString('targetInstanceId', request.targetInstanceId);
    const blackhole = request.blackhole === true;
    if (!blackhole) {
      const target = this.#instances.find(targetInstanceId);
      if (target === undefined || target.state === 'terminated') throw new SandboxCloudError('InvalidArgument', `target instance ${targetInstanceId} does not exist`);
    }
    for (const route of this.#routes.values()) {
      if (route.destinationCidr === request.destinationCidr) {
        throw new SandboxCloudError('AlreadyExists', `the route table already has a route for ${request.destinationCidr} (${route.id})`);
      }
    }
    this.#counter++;
    const record: RouteRecord = {
      id: `rt-${this.#counter.toString(16).padStart(8, '0')}`,
      destinationCidr: request.destinationCidr,
      targetInstanceId,
      explicitBlackhole: blackhole,
      description: request.description ?? '',
      tags: validateTags(request.tags),
    };
    this.#routes.set(record.id, record);
    return this.#view(record);
  }

  list(filter: { tags?: TagFilter } = {}): SandboxRoute[] {
    return [...this.#routes.values()].filter((route) => matchesTags(route.tags, filter.tags)).map((route) => this.#view(route));
  }

  get(id: string): SandboxRoute {
    return this.#view(this.#record(id));
  }

  /** With `requireTags`, refuses (InvalidState) to delete a route that does not carry them. */
  delete(id: string, options: { requireTags?: TagFilter }): void {
    const route = this.#record(id);
    if (!matchesTags(route.tags, options.requireTags)) {
      throw new SandboxCloudError('InvalidState', `route ${id} does not carry the tags ${JSON.stringify(options.requireTags)}; not deleted`);
    }
    this.#routes.delete(id);
  }

  clear(): void {
    this.#routes.clear();
    this.#counter = 0;
  }

  #record(id: string): RouteRecord {
    const route = this.#routes.get(id);
    if (route === undefined) throw new SandboxCloudError('NotFound', `route ${id} not found`);
    return route;
  }

  #view(route: RouteRecord): SandboxRoute {
    const target = this.#instances.find(route.targetInstanceId);
    return {
      id: route.id,
      destinationCidr: route.destinationCidr,
      targetInstanceId: route.targetInstanceId,
      targetInstanceName: target?.name ?? '',
      blackhole: route.explicitBlackhole || target === undefined || target.state === 'terminated',
      description: route.description,
      tags: { ...route.tags },
    };
  }
}
