import { readFileSync } from 'node:fs';

/** The parts of a Google API discovery document (REST description) the validator reads. */
export interface DiscoverySchema {
  id?: string;
  type?: string;
  format?: string;
  default?: string;
  $ref?: string;
  enum?: string[];
  items?: DiscoverySchema;
  properties?: Record<string, DiscoverySchema>;
  additionalProperties?: DiscoverySchema;
  annotations?: { required?: string[] };
}

export interface DiscoveryParameter extends DiscoverySchema {
  location?: 'path' | 'query';
  required?: boolean;
  repeated?: boolean;
  pattern?: string;
  minimum?: string;
  maximum?: string;
}

export interface DiscoveryMethod {
  id: string;
  path: string;
  httpMethod: string;
  parameters?: Record<string, DiscoveryParameter>;
  request?: { $ref: string };
  response?: { $ref: string };
}

interface DiscoveryResource {
  methods?: Record<string, DiscoveryMethod>;
  resources?: Record<string, DiscoveryResource>;
}

export interface DiscoveryDocument {
  name: string;
  version: string;
  revision: string;
  servicePath: string;
  parameters: Record<string, DiscoveryParameter>;
  schemas: Record<string, DiscoverySchema>;
  resources: Record<string, DiscoveryResource>;
}

/** Reads and sanity-checks a discovery document; the error names the file. */
export function readDiscoveryDocument(file: string): DiscoveryDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the discovery document ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const document = parsed as Partial<DiscoveryDocument>;
  if (typeof document.revision !== 'string' || document.schemas === undefined || document.resources === undefined || typeof document.servicePath !== 'string') {
    throw new Error(`${file} is not a discovery document (it needs revision, servicePath, schemas and resources)`);
  }
  return document as DiscoveryDocument;
}

/** Every method of the document, nested resources included. */
export function discoveryMethods(document: DiscoveryDocument): DiscoveryMethod[] {
  const methods: DiscoveryMethod[] = [];
  const walk = (resource: DiscoveryResource): void => {
    for (const method of Object.values(resource.methods ?? {})) methods.push(method);
    for (const child of Object.values(resource.resources ?? {})) walk(child);
  };
  for (const resource of Object.values(document.resources)) walk(resource);
  return methods;
}
