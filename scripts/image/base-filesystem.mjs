// The base layer's files, planned from the checked inputs (no I/O): Node's binary at
// /nodejs/bin/node, what is kept of each Debian package, the CA bundle the ca-certificates
// postinst would write, and the few files a distroless base has (passwd, group, nsswitch.conf,
// os-release, /tmp, the nonroot home, dpkg status entries so image scanners see the packages).
import { gunzipSync } from 'node:zlib';
import { readTar } from './tar-archive.mjs';

/** Modes are normalised: executables 0755, other files 0644, directories 0755, owner root. */
function normalizedMode(entry) {
  if (entry.type === 'directory') return 0o755;
  if (entry.type === 'symlink') return 0o777;
  return (entry.mode & 0o111) !== 0 ? 0o755 : 0o644;
}

const text = (content) => Buffer.from(content, 'utf8');

/** /etc/passwd, /etc/group and friends for a root-less image whose user is `definition.user`. */
export function systemFiles(definition, debian) {
  const { uid, gid, name, home } = definition.user;
  return [
    { path: 'etc/passwd', type: 'file', mode: 0o644, content: text(`root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n${name}:x:${uid}:${gid}:${name}:${home}:/sbin/nologin\n`) },
    { path: 'etc/group', type: 'file', mode: 0o644, content: text(`root:x:0:\nnobody:x:65534:\n${name}:x:${gid}:\n`) },
    { path: 'etc/nsswitch.conf', type: 'file', mode: 0o644, content: text('passwd: files\ngroup: files\nshadow: files\nhosts: files dns\nnetworks: files\nprotocols: files\nservices: files\nethers: files\nrpc: files\n') },
    {
      path: 'etc/os-release',
      type: 'file',
      mode: 0o644,
      content: text(`PRETTY_NAME="Debian GNU/Linux ${debian.version} (${debian.name}), distroless-like (ccm-ts)"\nNAME="Debian GNU/Linux"\nVERSION_ID="${debian.version}"\nVERSION="${debian.version} (${debian.name})"\nVERSION_CODENAME=${debian.name}\nID=debian\nHOME_URL="https://www.debian.org/"\n`),
    },
    { path: 'tmp', type: 'directory', mode: 0o1777 },
    { path: 'root', type: 'directory', mode: 0o700 },
    { path: home.replace(/^\//, ''), type: 'directory', mode: 0o700, uid, gid },
  ];
}

/**
 * The base layer entries and what the SBOM lists of them.
 * @param {{ runtime: typeof import('./image-inputs.mjs').NODE_RUNTIME, nodeTarball: Buffer, debianPackages: Array<{ pin: (typeof import('./image-inputs.mjs').DEBIAN_PACKAGES)[number], data: Buffer, control: string }>, definition: typeof import('./image-inputs.mjs').IMAGE_DEFINITION, debian: typeof import('./image-inputs.mjs').DEBIAN_RELEASE }} inputs
 */
export function planBaseFilesystem({ runtime, nodeTarball, debianPackages, definition, debian }) {
  const entries = [];
  const nodeFiles = new Map(readTar(gunzipSync(nodeTarball)).map((entry) => [entry.path, entry]));
  for (const [from, to, mode] of [
    ['package/bin/node', 'bin/node', 0o755],
    ['package/LICENSE', 'LICENSE', 0o644],
  ]) {
    const entry = nodeFiles.get(from);
    if (entry?.type !== 'file') throw new Error(`${runtime.packageName}@${runtime.version}: the tarball has no ${from}`);
    entries.push({ path: `${runtime.installDirectory}/${to}`, type: 'file', mode, content: entry.content });
  }

  const packages = [];
  for (const { pin, data, control } of debianPackages) {
    const files = readTar(data);
    const kept = files.filter((entry) => pin.keep.some((pattern) => pattern.test(entry.path)));
    if (!kept.some((entry) => entry.type !== 'directory')) throw new Error(`Debian package ${pin.name}=${pin.version}: none of its files matches what is kept of it`);
    for (const entry of kept) entries.push({ ...entry, mode: normalizedMode(entry), uid: 0, gid: 0 });
    if (pin.name === 'ca-certificates') entries.push(caBundle(files, pin));
    // What image scanners read in distroless images: one control paragraph per package.
    entries.push({ path: `var/lib/dpkg/status.d/${pin.name}`, type: 'file', mode: 0o644, content: text(`${control.trimEnd()}\nStatus: install ok installed\n`) });
    packages.push({ name: pin.name, version: pin.version, architecture: pin.architecture, sha256: pin.sha256, license: pin.license, copyright: `/usr/share/doc/${pin.name}/copyright` });
  }
  entries.push(...systemFiles(definition, debian));
  return { entries, packages };
}

/** /etc/ssl/certs/ca-certificates.crt: the Mozilla certificates in name order, as update-ca-certificates writes it. */
function caBundle(files, pin) {
  const certificates = files
    .filter((entry) => entry.type === 'file' && /^usr\/share\/ca-certificates\/mozilla\/[^/]+\.crt$/.test(entry.path))
    .sort((left, right) => (left.path < right.path ? -1 : 1))
    .map((entry) => {
      const pem = entry.content.toString('utf8');
      return pem.endsWith('\n') ? pem : `${pem}\n`;
    });
  if (certificates.length === 0) throw new Error(`Debian package ${pin.name}=${pin.version}: no certificate under /usr/share/ca-certificates/mozilla`);
  return { path: 'etc/ssl/certs/ca-certificates.crt', type: 'file', mode: 0o644, content: text(certificates.join('')) };
}
