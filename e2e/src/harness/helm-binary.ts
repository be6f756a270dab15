import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildGoBinary, type GoBinary } from './go-binary.js';

/** e2e/helm: the Go module that pins Helm (helm.sh/helm/v3, a `tool` of its go.mod). */
export const HELM_MODULE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'helm');

export const HELM_INSTALL_HINT =
  'install Go >= 1.26 (`.ci/install-prerequisites` checks it) and let it reach the Go module proxy; `.ci/install-prerequisites` pre-builds e2e/helm/.bin/helm (about 2 minutes cold on 2 cores, seconds with Go\'s build cache)';

/** The versions the Helm build stamps into the binary, read from e2e/helm/go.mod. */
export interface HelmBuildVersions {
  /** `v3.22.0`: what `helm version` prints. */
  helm: string;
  /** [1, 37] from k8s.io/client-go v0.37.x: the Kubernetes version `helm template` and `helm lint` assume. */
  kubernetes: [number, number];
}

/** Reads the pinned Helm and client-go versions of a go.mod. */
export function helmBuildVersions(goMod: string): HelmBuildVersions {
  const helm = /^\s*helm\.sh\/helm\/v3\s+(v\d+\.\d+\.\d+)\b/m.exec(goMod)?.[1];
  const clientGo = /^\s*k8s\.io\/client-go\s+v0\.(\d+)\.\d+\b/m.exec(goMod)?.[1];
  if (helm === undefined) throw new Error('e2e/helm/go.mod requires no helm.sh/helm/v3 version');
  if (clientGo === undefined) throw new Error('e2e/helm/go.mod requires no k8s.io/client-go v0.x version');
  return { helm, kubernetes: [1, Number(clientGo)] };
}

/**
 * The `-ldflags` of Helm's own Makefile: the release version (else `helm version` says v3.22 and
 * "unreleased"), and the Kubernetes version of its client-go as the default `.Capabilities.KubeVersion`
 * and the version `helm lint` checks API deprecations against (else v1.20). .ci/install-prerequisites
 * builds with the same flags.
 */
export function helmLdflags(versions: HelmBuildVersions): string {
  const [major, minor] = versions.kubernetes;
  return [
    `-X helm.sh/helm/v3/internal/version.version=${versions.helm}`,
    '-X helm.sh/helm/v3/internal/version.metadata=',
    `-X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=${major}`,
    `-X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=${minor}`,
    `-X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=${major}`,
    `-X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=${minor}`,
  ].join(' ');
}

let binary: Promise<GoBinary> | undefined;

/** Builds e2e/helm/.bin/helm once per process (a relink when .ci/install-prerequisites built it). */
export function helmBinary(): Promise<GoBinary> {
  binary ??= buildGoBinary({
    moduleDirectory: HELM_MODULE,
    name: 'helm',
    packagePath: 'helm.sh/helm/v3/cmd/helm',
    ldflags: helmLdflags(helmBuildVersions(readFileSync(join(HELM_MODULE, 'go.mod'), 'utf8'))),
    installHint: HELM_INSTALL_HINT,
  });
  return binary;
}
