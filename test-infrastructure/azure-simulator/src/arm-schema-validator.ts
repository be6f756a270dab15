/**
 * Validates ARM request and response bodies against the wire schema dumped from Microsoft's Python
 * SDKs (schema/dump_schema.py): every key must be in the model's attribute map (dotted keys are
 * flattened paths), every value must have the declared type, required keys must be present.
 * Read-only keys are fine in responses; in requests they are reported too unless
 * `allowReadOnlyInRequests` (ARM ignores them, but a client that sends them is sending something
 * the model says it should not). The tests use it on recorded exchanges; `schemaFile` makes the
 * simulator itself refuse requests (and flag its own responses) outside the schema.
 */

export interface FieldSchema {
  type: string;
  readonly: boolean;
  required: boolean;
}

export interface ArmSchema {
  packages: Record<string, string>;
  apiVersions: Record<string, Record<string, string | null>>;
  models: Record<string, { fields: Record<string, FieldSchema> }>;
}

interface Node {
  leaf?: FieldSchema;
  children: Map<string, Node>;
}

export type Direction = 'request' | 'response';

export class ArmSchemaValidator {
  private readonly trees = new Map<string, Node>();

  constructor(
    readonly schema: ArmSchema,
    private readonly options: { allowReadOnlyInRequests?: boolean } = {},
  ) {}

  hasModel(model: string): boolean {
    return model in this.schema.models;
  }

  /** Problems of `value` as `model` ([] when it conforms), each naming the JSON path. */
  validate(model: string, value: unknown, direction: Direction, path = '$'): string[] {
    return this.check(model, value, direction, path);
  }

  private tree(model: string): Node {
    let tree = this.trees.get(model);
    if (tree) return tree;
    const definition = this.schema.models[model];
    if (!definition) throw new Error(`the schema has no model ${model}`);
    tree = { children: new Map() };
    for (const [key, field] of Object.entries(definition.fields)) {
      const segments = key.split(/(?<!\\)\./).map((segment) => segment.replace(/\\\./g, '.'));
      let node = tree;
      for (const segment of segments) {
        let child = node.children.get(segment);
        if (!child) {
          child = { children: new Map() };
          node.children.set(segment, child);
        }
        node = child;
      }
      node.leaf = field;
    }
    this.trees.set(model, tree);
    return tree;
  }

  private check(type: string, value: unknown, direction: Direction, path: string): string[] {
    if (value === null) return [`${path}: null where ${type} is expected`];
    if (type.startsWith('[') && type.endsWith(']')) {
      if (!Array.isArray(value)) return [`${path}: expected an array (${type}), got ${describe(value)}`];
      return value.flatMap((item, index) => this.check(type.slice(1, -1), item, direction, `${path}[${index}]`));
    }
    if (type.startsWith('{') && type.endsWith('}')) {
      if (!isObject(value)) return [`${path}: expected an object map (${type}), got ${describe(value)}`];
      return Object.entries(value).flatMap(([key, item]) => this.check(type.slice(1, -1), item, direction, `${path}.${key}`));
    }
    switch (type) {
      case 'str':
      case 'duration':
      case 'bytearray':
      case 'base64':
        return typeof value === 'string' ? [] : [`${path}: expected a string, got ${describe(value)}`];
      case 'iso-8601':
      case 'rfc-1123':
      case 'date':
        return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? [] : [`${path}: expected a date-time string, got ${describe(value)}`];
      case 'int':
      case 'long':
      case 'unix-time':
        return Number.isInteger(value) ? [] : [`${path}: expected an integer, got ${describe(value)}`];
      case 'float':
      case 'decimal':
        return typeof value === 'number' ? [] : [`${path}: expected a number, got ${describe(value)}`];
      case 'bool':
        return typeof value === 'boolean' ? [] : [`${path}: expected a boolean, got ${describe(value)}`];
      case 'object':
        return [];
      default:
        return this.checkModel(type, value, direction, path);
    }
  }

  private checkModel(model: string, value: unknown, direction: Direction, path: string): string[] {
    if (!isObject(value)) return [`${path}: expected an object (${model}), got ${describe(value)}`];
    return this.checkNode(this.tree(model), model, value, direction, path);
  }

  private checkNode(node: Node, model: string, value: Record<string, unknown>, direction: Direction, path: string): string[] {
    const problems: string[] = [];
    for (const [key, item] of Object.entries(value)) {
      const child = node.children.get(key);
      const childPath = `${path}.${key}`;
      if (!child) {
        problems.push(`${childPath}: unknown key (not in ${model})`);
        continue;
      }
      if (child.leaf) {
        if (direction === 'request' && child.leaf.readonly && !this.options.allowReadOnlyInRequests) problems.push(`${childPath}: read-only key sent in a request (${model})`);
        problems.push(...this.check(child.leaf.type, item, direction, childPath));
        continue;
      }
      if (!isObject(item)) {
        problems.push(`${childPath}: expected an object (flattened part of ${model}), got ${describe(item)}`);
        continue;
      }
      problems.push(...this.checkNode(child, model, item, direction, childPath));
    }
    for (const [key, child] of node.children) {
      if (child.leaf?.required && !(key in value) && !(direction === 'request' && child.leaf.readonly)) problems.push(`${path}.${key}: required by ${model} but missing`);
    }
    return problems;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `${typeof value} ${JSON.stringify(value)?.slice(0, 60)}`;
}

/** Which model a path's body has: a resource, or a list of them (`{ value: [...] }`). */
export interface BodyShape {
  model: string;
  list: boolean;
}

const NETWORK_NESTED: Record<string, string> = {
  subnets: 'network.Subnet',
  frontendipconfigurations: 'network.FrontendIPConfiguration',
  backendaddresspools: 'network.BackendAddressPool',
  loadbalancingrules: 'network.LoadBalancingRule',
  probes: 'network.Probe',
  outboundrules: 'network.OutboundRule',
  inboundnatrules: 'network.InboundNatRule',
  securityrules: 'network.SecurityRule',
  defaultsecurityrules: 'network.SecurityRule',
  routes: 'network.Route',
  ipconfigurations: 'network.NetworkInterfaceIPConfiguration',
};

const TOP_LEVEL: Record<string, string> = {
  'microsoft.network/loadbalancers': 'network.LoadBalancer',
  'microsoft.network/publicipaddresses': 'network.PublicIPAddress',
  'microsoft.network/networkinterfaces': 'network.NetworkInterface',
  'microsoft.network/networksecuritygroups': 'network.NetworkSecurityGroup',
  'microsoft.network/routetables': 'network.RouteTable',
  'microsoft.network/virtualnetworks': 'network.VirtualNetwork',
  'microsoft.compute/virtualmachines': 'compute.VirtualMachine',
  'microsoft.compute/availabilitysets': 'compute.AvailabilitySet',
  'microsoft.compute/virtualmachinescalesets': 'compute.VirtualMachineScaleSet',
};

/** The body shape of an ARM path, or undefined for paths the Python models do not describe. */
export function bodyShapeOf(path: string): BodyShape | undefined {
  const parts = new URL(path, 'https://x').pathname.split('/').filter((part) => part !== '').map((part) => part.toLowerCase());
  if (parts[2] === 'providers' && parts[4] === 'locations' && parts[6] === 'operations') {
    return parts[3] === 'microsoft.network' ? { model: 'network.AzureAsyncOperationResult', list: false } : undefined;
  }
  if (parts[2] !== 'resourcegroups' || parts[4] !== 'providers') return undefined;
  const [namespace, type, name, ...rest] = parts.slice(5);
  const topLevel = TOP_LEVEL[`${namespace}/${type}`];
  if (!topLevel) return undefined;
  if (name === undefined) return { model: topLevel, list: true };
  if (rest.length === 0) return { model: topLevel, list: false };
  if (namespace === 'microsoft.network') {
    const nested = NETWORK_NESTED[rest[0] ?? ''];
    return nested && rest.length <= 2 ? { model: nested, list: rest.length === 1 } : undefined;
  }
  if (type === 'virtualmachines') return rest.length === 1 && rest[0] === 'instanceview' ? { model: 'compute.VirtualMachineInstanceView', list: false } : undefined;
  if (type === 'virtualmachinescalesets') {
    if (rest[0] === 'networkinterfaces' && rest.length === 1) return { model: 'network.NetworkInterface', list: true };
    if (rest[0] !== 'virtualmachines') return undefined;
    if (rest.length === 1) return { model: 'compute.VirtualMachineScaleSetVM', list: true };
    if (rest.length === 2) return { model: 'compute.VirtualMachineScaleSetVM', list: false };
    if (rest.length === 3 && rest[2] === 'instanceview') return { model: 'compute.VirtualMachineScaleSetVMInstanceView', list: false };
    if (rest[2] === 'networkinterfaces') {
      if (rest.length === 3) return { model: 'network.NetworkInterface', list: true };
      if (rest.length === 4) return { model: 'network.NetworkInterface', list: false };
      if (rest[4] === 'ipconfigurations') return { model: 'network.NetworkInterfaceIPConfiguration', list: rest.length === 5 };
    }
  }
  return undefined;
}

/** Problems of one body of the given shape (a list is `{ value: [...], nextLink? }`). */
export function validateBody(validator: ArmSchemaValidator, shape: BodyShape, body: unknown, direction: Direction): string[] {
  if (!shape.list) return validator.validate(shape.model, body, direction);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return ['$: expected a list object { value: [...] }'];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (key === 'value') problems.push(...validator.validate(`[${shape.model}]`, value, direction, '$.value'));
    else if (key === 'nextLink') {
      if (typeof value !== 'string') problems.push('$.nextLink: expected a string');
    } else problems.push(`$.${key}: unknown key in a list result`);
  }
  if (!('value' in body)) problems.push('$.value: missing in a list result');
  return problems;
}
