import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareWithSample, loadSample, novaApiSamplesDirectory, parseTemplate, sampleFile, sampleVersions } from './nova-api-samples.js';
import { novaApiSamplesSuite } from './nova-api-samples-suite.js';
import { NOVA_ROUTES } from './nova-routes.js';

describe('Nova API sample templates and the structural comparison', () => {
  it('fills quoted placeholders and makes bare ones match anything', () => {
    const parsed = parseTemplate('{"a": "%(host)s/v2.1/%(id)s", "b": %(flag)s, "c": "x%%(y)s"}', { host: 'http://h' });
    expect((parsed as Record<string, unknown>)['a']).toBe('http://h/v2.1/id');
    expect(compareWithSample({ a: 'x', b: 42, c: 'z' }, parsed)).toEqual([]);
    expect(compareWithSample({ a: 'x', b: { any: true }, c: 'z' }, parsed)).toEqual([]);
  });

  it('reports missing keys, extra keys and type changes with their path', () => {
    const sample = { server: { id: 'x', progress: 0, links: [{ href: 'h', rel: 'self' }], locked: false } };
    expect(compareWithSample({ server: { id: 'y', progress: 0, links: [{ href: 'h', rel: 'self' }], locked: false } }, sample)).toEqual([]);
    expect(compareWithSample({ server: { id: 'y', progress: '0', links: [{ href: 'h' }], extra: 1 } }, sample)).toEqual([
      '$.server.locked: missing (the sample has it)',
      '$.server.extra: not in the sample',
      '$.server.progress: string where the sample has number',
      '$.server.links[0].rel: missing (the sample has it)',
    ]);
  });

  it('treats null and string as one nullable type, and nothing else', () => {
    expect(compareWithSample({ key_name: 'mine' }, { key_name: null })).toEqual([]);
    expect(compareWithSample({ description: null }, { description: 'text' })).toEqual([]);
    expect(compareWithSample({ progress: null }, { progress: 0 })).toEqual(['$.progress: null where the sample has number']);
  });

  it('compares maps keyed by data (addresses, metadata, extra_specs) by value only', () => {
    const sample = { addresses: { private: [{ addr: 'a', version: 4 }] }, metadata: { 'My Server Name': 'Apache1' } };
    expect(compareWithSample({ addresses: { 'k8s-net': [{ addr: '10.0.0.5', version: 4 }], other: [] }, metadata: { role: 'worker' } }, sample)).toEqual([]);
    expect(compareWithSample({ addresses: { net: [{ addr: '10.0.0.5' }] }, metadata: { role: 1 } }, sample)).toEqual([
      '$.addresses["net"][0].version: missing (the sample has it)',
      '$.metadata["role"]: number where the sample has string',
    ]);
  });
});

novaApiSamplesSuite("Nova's API samples from python3-nova", () => {
  const directory = novaApiSamplesDirectory();

  it('has a sample for every route the stand-in serves that answers with a body', () => {
    for (const route of NOVA_ROUTES) {
      for (const sample of [route.responseSample, route.requestSample]) {
        if (sample !== undefined) expect(sampleFile(directory, sample, { major: 2, minor: 1 }), `${route.name}: ${sample}`).toBeDefined();
      }
    }
  });

  it('picks the newest vX.Y copy not newer than the microversion', () => {
    expect(sampleVersions(directory, 'servers/server-get-resp.json.tpl').map((version) => `${version.major}.${version.minor}`).slice(0, 6)).toEqual(['2.1', '2.3', '2.9', '2.16', '2.19', '2.47']);
    expect(sampleFile(directory, 'servers/server-get-resp.json.tpl', { major: 2, minor: 2 })).toBe(`${directory}/servers/server-get-resp.json.tpl`);
    expect(sampleFile(directory, 'servers/server-get-resp.json.tpl', { major: 2, minor: 46 })).toBe(`${directory}/servers/v2.19/server-get-resp.json.tpl`);
    expect(sampleFile(directory, 'servers/server-get-resp.json.tpl', { major: 2, minor: 47 })).toBe(`${directory}/servers/v2.47/server-get-resp.json.tpl`);
  });

  it('finds the flavor embedded in the server from 2.47 in the samples themselves', () => {
    const before = loadSample(directory, 'servers/server-get-resp.json.tpl', { major: 2, minor: 46 }).body as { server: { flavor: Record<string, unknown> } };
    const after = loadSample(directory, 'servers/server-get-resp.json.tpl', { major: 2, minor: 47 }).body as { server: { flavor: Record<string, unknown> } };
    expect(Object.keys(before.server.flavor).sort()).toEqual(['id', 'links']);
    expect(Object.keys(after.server.flavor).sort()).toEqual(['disk', 'ephemeral', 'extra_specs', 'original_name', 'ram', 'swap', 'vcpus']);
    expect(readFileSync(`${directory}/servers/v2.47/server-get-resp.json.tpl`, 'utf8')).toContain('%(');
  });
});
