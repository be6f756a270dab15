// The SBOM of a provider image (SPDX 2.3 JSON): the Node runtime, every Debian package of the base
// layer, and every npm package (and workspace package) esbuild inlined into the bundle, found from
// the bundle's metafile (<bin>.meta.json, written by scripts/bundle-provider.mjs).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The packages whose files the bundle inlines: for each metafile input, the nearest package.json
 * above it that has a name and a version.
 * @param {{ inputs: Record<string, unknown> }} metafile  paths relative to `workingDirectory`
 * @returns {Array<{ name: string, version: string, license: string, workspace: boolean }>} sorted by name, version
 */
export function bundledPackages(metafile, workingDirectory) {
  const manifestOfDirectory = new Map();
  const found = new Map();
  const manifestAbove = (directory) => {
    if (manifestOfDirectory.has(directory)) return manifestOfDirectory.get(directory);
    let manifest;
    const path = join(directory, 'package.json');
    if (existsSync(path)) {
      const parsed = JSON.parse(readFileSync(path, 'utf8'));
      if (typeof parsed.name === 'string' && typeof parsed.version === 'string') manifest = { ...parsed, directory };
    }
    const parent = dirname(directory);
    if (manifest === undefined && parent !== directory && directory !== workingDirectory) manifest = manifestAbove(parent);
    manifestOfDirectory.set(directory, manifest);
    return manifest;
  };
  for (const input of Object.keys(metafile.inputs)) {
    if (input.startsWith('<') || input.includes(':')) continue; // esbuild's virtual modules
    const manifest = manifestAbove(dirname(join(workingDirectory, input)));
    if (manifest === undefined || manifest.directory === workingDirectory) continue;
    const key = `${manifest.name}@${manifest.version}`;
    if (found.has(key)) continue;
    found.set(key, {
      name: manifest.name,
      version: manifest.version,
      license: typeof manifest.license === 'string' ? manifest.license : 'NOASSERTION',
      workspace: !manifest.directory.split('/').includes('node_modules'),
    });
  }
  return [...found.values()].sort((left, right) => (left.name === right.name ? (left.version < right.version ? -1 : 1) : left.name < right.name ? -1 : 1));
}

const spdxId = (kind, name, version) => `SPDXRef-${kind}-${`${name}-${version}`.replace(/[^A-Za-z0-9.-]/g, '-')}`;

/** SPDX 2.3 accepts a license expression of known ids and LicenseRef-*; anything else is NOASSERTION. */
function spdxLicense(license) {
  return /^[A-Za-z0-9.+ ()-]+$/.test(license) && license !== 'UNLICENSED' ? license : 'NOASSERTION';
}

/**
 * @param {{ imageReference: string, manifestDigest: string, created: string, sourceUrl: string, runtime: { packageName: string, version: string, integrity: string, license: string }, debianPackages: Array<{ name: string, version: string, architecture: string, sha256: string, license: string, copyright: string }>, debianRelease: { version: string }, bundled: ReturnType<typeof bundledPackages> }} image
 */
export function spdxDocument({ imageReference, manifestDigest, created, sourceUrl, runtime, debianPackages, debianRelease, bundled }) {
  const imageId = 'SPDXRef-image';
  const packages = [
    {
      SPDXID: imageId,
      name: imageReference,
      versionInfo: manifestDigest,
      downloadLocation: 'NOASSERTION',
      filesAnalyzed: false,
      primaryPackagePurpose: 'CONTAINER',
      licenseConcluded: 'NOASSERTION',
      licenseDeclared: 'NOASSERTION',
      copyrightText: 'NOASSERTION',
      externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: `pkg:oci/${imageReference.split('/').at(-1).split(':')[0]}@${encodeURIComponent(manifestDigest)}?repository_url=${encodeURIComponent(imageReference.split(':')[0])}` }],
    },
    {
      SPDXID: spdxId('npm', runtime.packageName, runtime.version),
      name: runtime.packageName,
      versionInfo: runtime.version,
      downloadLocation: `https://registry.npmjs.org/${runtime.packageName}/-/${runtime.packageName}-${runtime.version}.tgz`,
      filesAnalyzed: false,
      primaryPackagePurpose: 'APPLICATION',
      checksums: [{ algorithm: 'SHA512', checksumValue: Buffer.from(runtime.integrity.replace(/^sha512-/, ''), 'base64').toString('hex') }],
      licenseConcluded: 'NOASSERTION',
      licenseDeclared: runtime.license,
      copyrightText: 'NOASSERTION',
      comment: 'Node.js official Linux x64 binary, at /nodejs/bin/node',
      externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: `pkg:npm/${runtime.packageName}@${runtime.version}` }],
    },
    ...debianPackages.map((pin) => ({
      SPDXID: spdxId('deb', pin.name, pin.version),
      name: pin.name,
      versionInfo: pin.version,
      supplier: 'Organization: Debian',
      downloadLocation: 'NOASSERTION',
      filesAnalyzed: false,
      primaryPackagePurpose: 'LIBRARY',
      checksums: [{ algorithm: 'SHA256', checksumValue: pin.sha256 }],
      licenseConcluded: 'NOASSERTION',
      licenseDeclared: spdxLicense(pin.license),
      copyrightText: 'NOASSERTION',
      comment: `License from ${pin.copyright} (in the image)`,
      externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: `pkg:deb/debian/${encodeURIComponent(pin.name)}@${encodeURIComponent(pin.version)}?arch=${pin.architecture}&distro=debian-${debianRelease.version}` }],
    })),
    ...bundled.map((entry) => ({
      SPDXID: spdxId(entry.workspace ? 'workspace' : 'npm', entry.name, entry.version),
      name: entry.name,
      versionInfo: entry.version,
      downloadLocation: entry.workspace ? sourceUrl : 'NOASSERTION',
      filesAnalyzed: false,
      primaryPackagePurpose: 'LIBRARY',
      licenseConcluded: 'NOASSERTION',
      licenseDeclared: spdxLicense(entry.license),
      copyrightText: 'NOASSERTION',
      comment: entry.workspace ? 'workspace package of this repository, inlined in the bundle' : 'inlined in the bundle by esbuild',
      externalRefs: entry.workspace ? [] : [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: `pkg:npm/${entry.name.replace(/^@/, '%40')}@${entry.version}` }],
    })),
  ];
  return {
    spdxVersion: 'SPDX-2.3',
    dataLicense: 'CC0-1.0',
    SPDXID: 'SPDXRef-DOCUMENT',
    name: imageReference,
    documentNamespace: `${sourceUrl}/spdx/${imageReference}/${manifestDigest}`,
    creationInfo: { created, creators: ['Tool: ccm-ts scripts/image/build-image.mjs'] },
    documentDescribes: [imageId],
    packages,
    relationships: packages.slice(1).map((entry) => ({ spdxElementId: imageId, relationshipType: 'CONTAINS', relatedSpdxElement: entry.SPDXID })),
  };
}
