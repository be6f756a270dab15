/**
 * One contract for the ComputePort, run on the in-memory fake (test/fakes/fake-compute.ts) and on
 * the production adapter (sdk-compute-port.ts) against the Nova stand-in of @ccm/openstack-services
 * (issue 23 point 4): exact names, duplicates, flavors, and the 404s Nova answers.
 */
import { expect, it } from 'vitest';
import type { ComputePort } from '../../src/ports/compute-port.js';
import { refusalKind, UNKNOWN_UUID } from './refusal-kind.js';

export interface ComputePortContractFixture {
  port: ComputePort;
  /** A flavor the side has (listed). */
  flavor: { id: string; name: string };
  /** An ACTIVE server of that flavor. */
  createServer(name: string): Promise<{ id: string }>;
  deleteServer(id: string): Promise<void>;
  /** Unique per run, so that servers of other runs never match. */
  prefix: string;
}

export function describeComputePortContract(fixture: () => ComputePortContractFixture): void {
  it('reads a server by ID: name, ACTIVE, its flavor; an unknown ID, a malformed one and a deleted server are NotFound', async () => {
    const side = fixture();
    const name = `${side.prefix}-get`;
    const { id } = await side.createServer(name);
    const server = await side.port.getServer(id);
    expect([server.id, server.name, server.status, server.flavor.id]).toEqual([id, name, 'ACTIVE', side.flavor.id]);
    expect(await refusalKind(side.port.getServer(UNKNOWN_UUID))).toBe('NotFound');
    expect(await refusalKind(side.port.getServer('not-a-uuid'))).toBe('NotFound');
    await side.deleteServer(id);
    expect(await refusalKind(side.port.getServer(id))).toBe('NotFound');
  });

  it('lists servers by exact name: duplicates all, a name that only starts alike or differs in case never, no names nothing', async () => {
    const side = fixture();
    const name = `${side.prefix}-dup`;
    const first = await side.createServer(name);
    const second = await side.createServer(name);
    const longer = await side.createServer(`${name}-x`);
    expect((await side.port.serversNamed(name)).map((server) => server.id).sort()).toEqual([first.id, second.id].sort());
    expect((await side.port.listServersByName([name, `${name}-x`])).map((server) => server.id).sort()).toEqual([first.id, second.id, longer.id].sort());
    expect(await side.port.serversNamed(name.toUpperCase())).toEqual([]);
    expect(await side.port.serversNamed(`${side.prefix}-nobody`)).toEqual([]);
    expect(await side.port.listServersByName([])).toEqual([]);
    for (const server of [first, second, longer]) await side.deleteServer(server.id);
    expect(await side.port.serversNamed(name)).toEqual([]);
  });

  it('reads a flavor by ID and lists it; an unknown flavor is NotFound', async () => {
    const side = fixture();
    expect(await side.port.getFlavor(side.flavor.id)).toEqual(side.flavor);
    expect(await side.port.listFlavors()).toContainEqual(side.flavor);
    expect(await refusalKind(side.port.getFlavor('no-such-flavor'))).toBe('NotFound');
  });
}
