import { describe, expect, it } from 'vitest';
import { delegatedAuthCcmFlags } from './delegated-auth-ccm.js';
import { documentedDebuggingRole, documentedPrometheusRbac } from './secure-port-client.js';

describe('the Prometheus RBAC of docs/troubleshooting.md', () => {
  it('grants get on /metrics only, to a ServiceAccount', () => {
    const objects = documentedPrometheusRbac();
    expect(objects.map((object) => object.kind)).toEqual(['ClusterRole', 'ClusterRoleBinding']);
    expect(objects[0]?.['rules']).toEqual([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]);
    expect(objects[1]?.['roleRef']).toMatchObject({ kind: 'ClusterRole', name: objects[0]?.metadata.name });
    expect(objects[1]?.subjects).toEqual([{ kind: 'ServiceAccount', name: 'prometheus', namespace: 'monitoring' }]);
  });

  it('names the section it reads', () => {
    expect(() => documentedPrometheusRbac('# nothing here')).toThrow('docs/troubleshooting.md has no "### Scraping `/metrics` with Prometheus" section');
  });
});

describe('the debugging ClusterRole of docs/troubleshooting.md', () => {
  it('grants get and put on /debug/flags/v and get on /debug/pprof/', () => {
    expect(documentedDebuggingRole().rules).toEqual([
      { nonResourceURLs: ['/debug/flags/v'], verbs: ['get', 'put'] },
      { nonResourceURLs: ['/debug/pprof', '/debug/pprof/*'], verbs: ['get'] },
    ]);
  });
});

describe('delegatedAuthCcmFlags', () => {
  it('keeps the common flags but leaves /metrics to authorization', () => {
    const flags = delegatedAuthCcmFlags('/tmp/kubeconfig', 10258);
    expect(flags.filter((flag) => flag.startsWith('--authorization-always-allow-paths='))).toEqual(['--authorization-always-allow-paths=/healthz,/readyz,/livez']);
    expect(flags).toContain('--authentication-kubeconfig=/tmp/kubeconfig');
    expect(flags).toContain('--authorization-kubeconfig=/tmp/kubeconfig');
    expect(flags).toContain('--secure-port=10258');
  });
});
