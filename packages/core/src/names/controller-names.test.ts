import { describe, expect, it } from 'vitest';
import { CONTROLLER_ALIASES, CONTROLLER_CLIENT_NAMES, CONTROLLER_NAMES } from './controller-names.js';

// Upstream app/controllermanager_test.go: canonical names match the regex, end in -controller,
// and every alias points at a declared name.
describe('controller names (upstream TestControllerNamesConsistency)', () => {
  it.each([...CONTROLLER_NAMES])('%s is a valid canonical name ending in -controller', (name) => {
    expect(name).toMatch(/^[a-z]([-a-z]*[a-z])?$/);
    expect(name.endsWith('-controller')).toBe(true);
  });
  it('keeps the upstream aliases, each pointing at a declared controller', () => {
    expect(CONTROLLER_ALIASES).toEqual({
      'cloud-node': 'cloud-node-controller',
      'cloud-node-lifecycle': 'cloud-node-lifecycle-controller',
      service: 'service-lb-controller',
      route: 'node-route-controller',
    });
    for (const target of Object.values(CONTROLLER_ALIASES)) expect(CONTROLLER_NAMES).toContain(target);
  });
  it('uses the upstream client identities', () => {
    expect(CONTROLLER_CLIENT_NAMES).toEqual({
      'cloud-node-controller': 'node-controller',
      'cloud-node-lifecycle-controller': 'node-controller',
      'service-lb-controller': 'service-controller',
      'node-route-controller': 'route-controller',
    });
  });
});
