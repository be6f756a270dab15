/**
 * Resource URLs as the Compute API writes them (`<api-endpoint>projects/<project>/...`) and their
 * comparison by path, so that a link written through one endpoint (a proxy) matches one read
 * through another.
 */
export class ResourceLinks {
  readonly #base: string;
  readonly #project: string;
  readonly #networkProject: string;

  constructor(baseUrl: string, project: string, networkProject: string) {
    this.#base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
    this.#project = project;
    this.#networkProject = networkProject;
  }

  network(name: string): string {
    return `${this.#base}projects/${this.#networkProject}/global/networks/${name}`;
  }

  instance(zone: string, name: string): string {
    return `${this.#base}projects/${this.#project}/zones/${zone}/instances/${name}`;
  }

  httpHealthCheck(name: string): string {
    return `${this.#base}projects/${this.#project}/global/httpHealthChecks/${name}`;
  }

  /** Subnetworks live in the network project (shared VPC). */
  subnetwork(region: string, name: string): string {
    return `${this.#base}projects/${this.#networkProject}/regions/${region}/subnetworks/${name}`;
  }

  healthCheck(name: string): string {
    return `${this.#base}projects/${this.#project}/global/healthChecks/${name}`;
  }

  regionBackendService(region: string, name: string): string {
    return `${this.#base}projects/${this.#project}/regions/${region}/backendServices/${name}`;
  }

  instanceGroup(zone: string, name: string): string {
    return `${this.#base}projects/${this.#project}/zones/${zone}/instanceGroups/${name}`;
  }

  targetPool(region: string, name: string): string {
    return `${this.#base}projects/${this.#project}/regions/${region}/targetPools/${name}`;
  }
}

/** `https://host/compute/v1/projects/p/zones/z/instances/i` -> `projects/p/zones/z/instances/i`. */
export function resourcePath(url: string): string {
  const at = url.indexOf('projects/');
  return at < 0 ? url : url.slice(at);
}

export function sameResource(left: string | undefined, right: string | undefined): boolean {
  return left !== undefined && right !== undefined && resourcePath(left) === resourcePath(right);
}

/** The last path element of a URL (`.../instances/node-1` -> `node-1`). */
export function nameOfLink(url: string): string {
  return url.split('/').at(-1) ?? url;
}
