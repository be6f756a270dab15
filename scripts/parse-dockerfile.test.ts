import { describe, expect, it } from 'vitest';
import { parseDockerfile } from './parse-dockerfile.js';

describe('parseDockerfile', () => {
  it('reads instructions with upper-cased keywords and their starting line', () => {
    expect(parseDockerfile('# syntax=docker/dockerfile:1\nfrom node:22 AS build\n\nRUN echo hi\n')).toEqual([
      { keyword: 'FROM', arguments: 'node:22 AS build', line: 2 },
      { keyword: 'RUN', arguments: 'echo hi', line: 4 },
    ]);
  });

  it('joins line continuations and drops comment lines inside them', () => {
    const text = ['LABEL a="1" \\', '  # a comment in the middle', '      b="2" \\', '      c="3"', 'USER 65532:65532'].join('\n');
    expect(parseDockerfile(text)).toEqual([
      { keyword: 'LABEL', arguments: 'a="1" b="2" c="3"', line: 1 },
      { keyword: 'USER', arguments: '65532:65532', line: 5 },
    ]);
  });

  it('keeps exec-form JSON arguments intact', () => {
    const [entrypoint] = parseDockerfile('ENTRYPOINT ["/nodejs/bin/node", "--enable-source-maps", "/app/x.mjs"]');
    expect(JSON.parse(entrypoint!.arguments)).toEqual(['/nodejs/bin/node', '--enable-source-maps', '/app/x.mjs']);
  });

  it('rejects a file ending in a line continuation', () => {
    expect(() => parseDockerfile('FROM scratch\nRUN echo \\')).toThrow('line 2');
  });
});
