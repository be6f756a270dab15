import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELM_MODULE, helmBuildVersions, helmLdflags } from './helm-binary.js';

describe('helmBuildVersions', () => {
  it('reads the Helm release and the Kubernetes minor of client-go from go.mod', () => {
    const goMod = 'module x\n\ngo 1.26.0\n\nrequire (\n\thelm.sh/helm/v3 v3.22.0 // indirect\n\tk8s.io/client-go v0.37.0 // indirect\n)\n';
    expect(helmBuildVersions(goMod)).toEqual({ helm: 'v3.22.0', kubernetes: [1, 37] });
  });

  it('names what go.mod lacks', () => {
    expect(() => helmBuildVersions('module x\n\trequire k8s.io/client-go v0.37.0\n')).toThrow('requires no helm.sh/helm/v3 version');
    expect(() => helmBuildVersions('module x\n\thelm.sh/helm/v3 v3.22.0\n')).toThrow('requires no k8s.io/client-go');
  });

  it('e2e/helm/go.mod pins Helm 3 and its client-go', () => {
    const versions = helmBuildVersions(readFileSync(join(HELM_MODULE, 'go.mod'), 'utf8'));
    expect(versions.helm).toMatch(/^v3\.\d+\.\d+$/);
    expect(versions.kubernetes[1]).toBeGreaterThanOrEqual(30);
  });
});

describe('helmLdflags', () => {
  it("stamps the version and the default Kubernetes version as Helm's Makefile does", () => {
    expect(helmLdflags({ helm: 'v3.22.0', kubernetes: [1, 37] }).split(' -X ')).toEqual([
      '-X helm.sh/helm/v3/internal/version.version=v3.22.0',
      'helm.sh/helm/v3/internal/version.metadata=',
      'helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1',
      'helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=37',
      'helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1',
      'helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=37',
    ]);
  });
});
