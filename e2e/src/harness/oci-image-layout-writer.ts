/**
 * A small OCI image layout written from a folder (one gzip layer, owners root): the pod runner's
 * own tests run a fixture image made of the host's node, the libraries `ldd` lists for it, and a
 * script, without waiting for the provider images.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';

const execFileAsync = promisify(execFile);

export interface ImageConfigFields {
  Entrypoint: string[];
  Cmd?: string[];
  Env?: string[];
  User?: string;
  WorkingDir?: string;
}

async function writeBlob(layout: string, bytes: Buffer): Promise<{ digest: string; size: number }> {
  const hex = createHash('sha256').update(bytes).digest('hex');
  await writeFile(join(layout, 'blobs', 'sha256', hex), bytes);
  return { digest: `sha256:${hex}`, size: bytes.length };
}

/** Writes an OCI image layout at `layout` whose single layer is the content of `rootDirectory`. */
export async function writeOciLayout(layout: string, rootDirectory: string, config: ImageConfigFields): Promise<string> {
  await mkdir(join(layout, 'blobs', 'sha256'), { recursive: true });
  const tarball = join(layout, 'layer.tar.gz');
  await execFileAsync('tar', ['--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '-czf', tarball, '-C', rootDirectory, '.']);
  const layerBytes = await readFile(tarball);
  await rm(tarball);
  const layer = await writeBlob(layout, layerBytes);
  const diffId = `sha256:${createHash('sha256').update(gunzipSync(layerBytes)).digest('hex')}`;
  const configBlob = await writeBlob(
    layout,
    Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', config, rootfs: { type: 'layers', diff_ids: [diffId] } })),
  );
  const manifest = await writeBlob(
    layout,
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...configBlob },
        layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', ...layer }],
      }),
    ),
  );
  await writeFile(join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  await writeFile(join(layout, 'index.json'), JSON.stringify({ schemaVersion: 2, manifests: [{ mediaType: 'application/vnd.oci.image.manifest.v1+json', ...manifest }] }));
  return manifest.digest;
}

/** The libraries `ldd` lists for a binary (absolute paths, the loader included). */
async function sharedLibraries(binary: string): Promise<string[]> {
  const { stdout } = await execFileAsync('ldd', [binary]);
  const paths: string[] = [];
  for (const line of stdout.split('\n')) {
    const match = /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line);
    if (match?.[1] !== undefined) paths.push(match[1]);
  }
  return paths;
}

/**
 * An image of the host's node binary at /nodejs/bin/node with its libraries and `files`
 * (path in the image -> content), entrypoint `node <entryScript>`, user 65532.
 */
export async function writeNodeFixtureImage(layout: string, files: Record<string, string>, entryScript: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ccm-fixture-rootfs-'));
  try {
    // mkdtemp makes 0700; the image's / must be 0755 like any root filesystem.
    await chmod(root, 0o755);
    const node = process.execPath;
    const copies: Array<[string, string]> = [[node, '/nodejs/bin/node'], ...(await sharedLibraries(node)).map((path): [string, string] => [path, path])];
    for (const [from, to] of copies) {
      await mkdir(join(root, dirname(to)), { recursive: true });
      await copyFile(from, join(root, to));
      await chmod(join(root, to), 0o755);
    }
    for (const [path, content] of Object.entries(files)) {
      await mkdir(join(root, dirname(path)), { recursive: true });
      await writeFile(join(root, path), content);
    }
    for (const directory of ['tmp', 'etc', 'proc', 'sys', 'dev']) await mkdir(join(root, directory), { recursive: true });
    await writeFile(join(root, 'etc', 'passwd'), 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n');
    return await writeOciLayout(layout, root, {
      Entrypoint: ['/nodejs/bin/node', entryScript],
      Env: ['PATH=/usr/local/bin:/usr/bin:/bin', 'FIXTURE_IMAGE=yes'],
      User: '65532:65532',
      WorkingDir: '/app',
    });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
