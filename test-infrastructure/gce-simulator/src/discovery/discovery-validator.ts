import { discoveryMethods, readDiscoveryDocument, type DiscoveryDocument, type DiscoveryMethod, type DiscoverySchema } from './discovery-document.js';

interface CompiledMethod {
  method: DiscoveryMethod;
  pattern: RegExp;
  names: string[];
  literals: number;
}

export interface MatchedMethod {
  method: DiscoveryMethod;
  pathParams: Record<string, string>;
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const UINT32 = { min: 0, max: 2 ** 32 - 1 };

/**
 * Checks requests and responses against a Compute discovery document: the path and method must be
 * a described method; query parameters must be described (the method's or the API's standard ones,
 * also in their `$name` system-parameter form) with the right type, enum and repetition; path
 * parameters must match their pattern; request and response bodies must use only described fields,
 * with the right JSON types and enum values, and carry the fields the document marks required.
 */
export class DiscoveryValidator {
  private readonly compiled: CompiledMethod[];

  constructor(readonly document: DiscoveryDocument) {
    this.compiled = discoveryMethods(document).map((method) => {
      const names: string[] = [];
      let literals = 0;
      const source = method.path
        .split('/')
        .map((segment) => {
          const variable = /^\{\+?([^}]+)\}$/.exec(segment);
          if (variable === null) {
            literals += 1;
            return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          }
          names.push(variable[1] ?? '');
          return segment.startsWith('{+') ? '(.+)' : '([^/]+)';
        })
        .join('/');
      return { method, pattern: new RegExp(`^${source}$`), names, literals };
    });
  }

  static fromFile(file: string): DiscoveryValidator {
    return new DiscoveryValidator(readDiscoveryDocument(file));
  }

  get revision(): string {
    return this.document.revision;
  }

  methodById(id: string): DiscoveryMethod | undefined {
    return this.compiled.find((entry) => entry.method.id === id)?.method;
  }

  /** The described method for an HTTP method and a path relative to the service path (`projects/...`). */
  match(httpMethod: string, relativePath: string): MatchedMethod | undefined {
    let best: { entry: CompiledMethod; match: RegExpExecArray } | undefined;
    for (const entry of this.compiled) {
      if (entry.method.httpMethod !== httpMethod) continue;
      const match = entry.pattern.exec(relativePath);
      if (match !== null && (best === undefined || entry.literals > best.entry.literals)) best = { entry, match };
    }
    if (best === undefined) return undefined;
    const pathParams: Record<string, string> = {};
    best.entry.names.forEach((name, index) => {
      pathParams[name] = decodeURIComponent(best.match[index + 1] ?? '');
    });
    return { method: best.entry.method, pathParams };
  }

  /** Violations of a request: path parameters, query parameters and body. */
  validateRequest(method: DiscoveryMethod, pathParams: Record<string, string>, query: URLSearchParams, body: unknown): string[] {
    const violations: string[] = [];
    const parameters = method.parameters ?? {};
    for (const [name, value] of Object.entries(pathParams)) {
      const parameter = parameters[name];
      if (parameter?.location !== 'path') violations.push(`path parameter ${name} is not described for ${method.id}`);
      else if (parameter.pattern !== undefined && !new RegExp(`^(?:${parameter.pattern})$`).test(value)) {
        violations.push(`path parameter ${name}=${JSON.stringify(value)} does not match ${parameter.pattern}`);
      }
    }
    for (const name of new Set(query.keys())) {
      const values = query.getAll(name);
      const own = parameters[name];
      const parameter = own?.location === 'query' ? own : this.document.parameters[name];
      if (parameter === undefined) {
        if (name.startsWith('$') && this.document.parameters[name.slice(1)] !== undefined) continue; // system parameter form, e.g. $alt
        violations.push(`query parameter ${name} is not described for ${method.id}`);
        continue;
      }
      if (values.length > 1 && parameter.repeated !== true) violations.push(`query parameter ${name} is repeated but is not a repeated parameter`);
      for (const value of values) this.checkQueryValue(name, value, parameter, violations);
    }
    for (const [name, parameter] of Object.entries(parameters)) {
      if (parameter.required === true && parameter.location === 'query' && !query.has(name)) violations.push(`required query parameter ${name} is missing`);
    }
    if (method.request === undefined) {
      if (body !== undefined && !(isRecord(body) && Object.keys(body).length === 0)) violations.push(`${method.id} takes no request body`);
    } else if (body === undefined) {
      violations.push(`${method.id} needs a ${method.request.$ref} request body`);
    } else {
      this.checkValue({ $ref: method.request.$ref }, body, 'request', violations, method.id);
    }
    return violations;
  }

  /** Violations of a response body. */
  validateResponse(method: DiscoveryMethod, body: unknown): string[] {
    const violations: string[] = [];
    if (method.response === undefined) {
      if (body !== undefined) violations.push(`${method.id} has no response body, but one was sent`);
      return violations;
    }
    this.checkValue({ $ref: method.response.$ref }, body, 'response', violations, undefined);
    return violations;
  }

  /** Violations of a value against a schema (`{ $ref: 'Instance' }` or an inline one). */
  checkSchema(schema: DiscoverySchema, value: unknown, where: string): string[] {
    const violations: string[] = [];
    this.checkValue(schema, value, where, violations, undefined);
    return violations;
  }

  private checkQueryValue(name: string, value: string, parameter: DiscoverySchema & { minimum?: string; maximum?: string }, violations: string[]): void {
    if (parameter.type === 'integer') {
      if (!/^-?\d+$/.test(value)) violations.push(`query parameter ${name}=${JSON.stringify(value)} is not an integer`);
      else {
        const number = Number(value);
        if (parameter.minimum !== undefined && number < Number(parameter.minimum)) violations.push(`query parameter ${name}=${value} is below ${parameter.minimum}`);
        if (parameter.maximum !== undefined && number > Number(parameter.maximum)) violations.push(`query parameter ${name}=${value} is above ${parameter.maximum}`);
      }
    } else if (parameter.type === 'boolean' && !/^(true|false)$/i.test(value)) {
      violations.push(`query parameter ${name}=${JSON.stringify(value)} is not a boolean`);
    }
    if (parameter.enum !== undefined && !parameter.enum.includes(value)) violations.push(`query parameter ${name}=${JSON.stringify(value)} is not one of ${parameter.enum.join(', ')}`);
  }

  private checkValue(schema: DiscoverySchema, value: unknown, where: string, violations: string[], requestMethodId: string | undefined): void {
    if (schema.$ref !== undefined) {
      const target = this.document.schemas[schema.$ref];
      if (target === undefined) {
        violations.push(`${where}: schema ${schema.$ref} is not in the document`);
        return;
      }
      this.checkValue(target, value, where, violations, requestMethodId);
      return;
    }
    switch (schema.type) {
      case 'object': {
        if (!isRecord(value)) {
          violations.push(`${where}: expected an object, got ${describe(value)}`);
          return;
        }
        for (const [key, inner] of Object.entries(value)) {
          const property = schema.properties?.[key] ?? schema.additionalProperties;
          if (property === undefined) violations.push(`${where}.${key}: unknown field${schema.id === undefined ? '' : ` of ${schema.id}`}`);
          else this.checkValue(property, inner, `${where}.${key}`, violations, requestMethodId);
          const fixed = key === 'kind' ? schema.properties?.[key]?.default : undefined;
          if (fixed !== undefined && inner !== fixed) violations.push(`${where}.kind: ${JSON.stringify(inner)} is not ${JSON.stringify(fixed)}`);
        }
        if (requestMethodId !== undefined) {
          for (const [key, property] of Object.entries(schema.properties ?? {})) {
            if (property.annotations?.required?.includes(requestMethodId) === true && value[key] === undefined) violations.push(`${where}.${key}: required by ${requestMethodId}`);
          }
        }
        return;
      }
      case 'array':
        if (!Array.isArray(value)) violations.push(`${where}: expected an array, got ${describe(value)}`);
        else value.forEach((item, index) => this.checkValue(schema.items ?? {}, item, `${where}[${index}]`, violations, requestMethodId));
        return;
      case 'string':
        if (typeof value !== 'string') violations.push(`${where}: expected a string${schema.format === undefined ? '' : ` (${schema.format})`}, got ${describe(value)}`);
        else if ((schema.format === 'int64' || schema.format === 'uint64') && !/^-?\d+$/.test(value)) violations.push(`${where}: ${JSON.stringify(value)} is not a ${schema.format}`);
        else if (schema.format === 'byte' && !/^[A-Za-z0-9+/_-]*={0,2}$/.test(value)) violations.push(`${where}: ${JSON.stringify(value)} is not base64`);
        else if (schema.enum !== undefined && !schema.enum.includes(value)) violations.push(`${where}: ${JSON.stringify(value)} is not one of ${schema.enum.join(', ')}`);
        return;
      case 'integer': {
        if (typeof value !== 'number' || !Number.isInteger(value)) {
          violations.push(`${where}: expected an integer, got ${describe(value)}`);
          return;
        }
        const range = schema.format === 'uint32' ? UINT32 : schema.format === 'int32' ? INT32 : undefined;
        if (range !== undefined && (value < range.min || value > range.max)) violations.push(`${where}: ${value} is out of the ${schema.format ?? ''} range`);
        return;
      }
      case 'number':
        if (typeof value !== 'number') violations.push(`${where}: expected a number, got ${describe(value)}`);
        return;
      case 'boolean':
        if (typeof value !== 'boolean') violations.push(`${where}: expected a boolean, got ${describe(value)}`);
        return;
      case 'any':
      case undefined:
        return;
      default:
        violations.push(`${where}: the document uses an unknown type ${schema.type}`);
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `${typeof value} ${JSON.stringify(value)?.slice(0, 60) ?? ''}`;
}
