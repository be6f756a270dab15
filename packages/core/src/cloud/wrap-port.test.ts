import { describe, expect, it } from 'vitest';
import { chainArounds, operationNameOf, signalOfCall, wrapPort, type PortAround, type PortCall } from './wrap-port.js';

interface TaggingPort {
  getTag(id: string, signal?: AbortSignal): Promise<string>;
}

interface ExamplePort {
  readonly name: string;
  describe(id: string, options?: { signal?: AbortSignal }): Promise<string>;
  tagging: TaggingPort;
  close(): Promise<void>;
}

class ClassPort implements ExamplePort {
  readonly name = 'example';
  readonly tagging: TaggingPort = { getTag: async (id) => `tag-${id}` };
  closed = 0;
  readonly #prefix = 'vm-';
  async describe(id: string): Promise<string> {
    return `${this.#prefix}${id}`;
  }
  async close(): Promise<void> {
    this.closed++;
  }
}

function recording(): { calls: PortCall[]; around: PortAround } {
  const calls: PortCall[] = [];
  return {
    calls,
    around: (call, invoke) => {
      calls.push(call);
      return invoke();
    },
  };
}

describe('operationNameOf', () => {
  it.each([
    { path: 'describeInstances', naming: { name: 'ec2' }, expected: 'ec2.describeInstances' },
    { path: 'getInstance', naming: {}, expected: 'getInstance' },
    { path: 'getInstance', naming: { name: '' }, expected: 'getInstance' },
    { path: 'findVmByUuid', naming: { name: 'vcenter', operations: { findVmByUuid: 'FindByUuid' } }, expected: 'FindByUuid' },
    { path: 'tagging.getTag', naming: { operations: { 'tagging.getTag': 'GetTag' } }, expected: 'GetTag' },
    { path: 'tagging.getCategory', naming: { name: 'rest' }, expected: 'rest.tagging.getCategory' },
  ])('$path with $naming is $expected', ({ path, naming, expected }) => {
    expect(operationNameOf(path, naming)).toBe(expected);
  });
});

describe('signalOfCall', () => {
  const signal = new AbortController().signal;
  it.each([
    { name: 'no arguments', parameters: [], expected: undefined },
    { name: 'a signal last', parameters: ['id', signal], expected: signal },
    { name: 'options with a signal last', parameters: ['id', { signal }], expected: signal },
    { name: 'options without a signal', parameters: ['id', { other: 1 }], expected: undefined },
    { name: 'a signal not last', parameters: [signal, 'id'], expected: undefined },
    { name: 'a signal property that is no signal', parameters: [{ signal: 'no' }], expected: undefined },
    { name: 'null last', parameters: [null], expected: undefined },
  ])('$name', ({ parameters, expected }) => {
    expect(signalOfCall(parameters)).toBe(expected);
  });
});

describe('wrapPort', () => {
  it('runs every method through the stage, keeps other members, and binds methods to the port', async () => {
    const port = new ClassPort();
    const { calls, around } = recording();
    const wrapped = wrapPort<ExamplePort>(port, around, { name: 'vcenter', nested: ['tagging'], passThrough: ['close'] });
    const controller = new AbortController();
    expect(await wrapped.describe('42', { signal: controller.signal })).toBe('vm-42');
    expect(await wrapped.tagging.getTag('t1', controller.signal)).toBe('tag-t1');
    await wrapped.close();
    expect(wrapped.name).toBe('example');
    expect(port.closed).toBe(1);
    expect(calls).toEqual([
      { operation: 'vcenter.describe', method: 'describe', signal: controller.signal, args: ['42', { signal: controller.signal }] },
      { operation: 'vcenter.tagging.getTag', method: 'tagging.getTag', signal: controller.signal, args: ['t1', controller.signal] },
    ]);
  });

  it('leaves nested objects alone unless they are named', async () => {
    const { calls, around } = recording();
    const wrapped = wrapPort<ExamplePort>(new ClassPort(), around);
    await wrapped.tagging.getTag('t1');
    await wrapped.close();
    expect(calls.map((call) => call.operation)).toEqual(['close']);
  });

  it('turns a synchronous throw into a rejection the stages see', async () => {
    const seen: unknown[] = [];
    const port = {
      explode(): Promise<never> {
        throw new Error('boom');
      },
    };
    const wrapped = wrapPort(port, async (_call, invoke) => {
      try {
        return await invoke();
      } catch (error) {
        seen.push(error);
        throw error;
      }
    });
    await expect(wrapped.explode()).rejects.toThrow('boom');
    expect(seen).toHaveLength(1);
  });

  it('hands out the same wrapped method on every access', () => {
    const wrapped = wrapPort<ExamplePort>(new ClassPort(), (_call, invoke) => invoke());
    expect(wrapped.describe).toBe(wrapped.describe);
  });
});

describe('chainArounds', () => {
  it('runs the stages outermost first, each around the next', async () => {
    const order: string[] = [];
    const stage =
      (name: string): PortAround =>
      async (_call, invoke) => {
        order.push(`${name}>`);
        const result = await invoke();
        order.push(`<${name}`);
        return result;
      };
    const chained = chainArounds(stage('outer'), stage('middle'), stage('inner'));
    const result = await chained({ operation: 'op', method: 'op', signal: undefined, args: [] }, async () => {
      order.push('call');
      return 7;
    });
    expect(result).toBe(7);
    expect(order).toEqual(['outer>', 'middle>', 'inner>', 'call', '<inner', '<middle', '<outer']);
  });

  it('with no stage is the call itself', async () => {
    await expect(chainArounds()({ operation: 'op', method: 'op', signal: undefined, args: [] }, async () => 'direct')).resolves.toBe('direct');
  });
});
