/**
 * The kubelet's volume contents on the host: ConfigMap and Secret volumes and the projected
 * ServiceAccount volume, written the way its atomic writer lays them out (a timestamped folder,
 * `..data` pointing at it, one symlink per key), with the volume's modes.
 */
import { chmod, chown, mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { POD_DEFAULTS, type KeyToPath } from './pod-spec.js';
import { PodConfigError } from './pod-runtime-config.js';

export interface VolumeFile {
  path: string;
  content: Buffer;
  mode: number;
}

/** Pure: the files of a ConfigMap or Secret volume (`items` select and rename keys; modes default to `defaultMode`). */
export function projectKeys(source: string, data: Record<string, Buffer>, items: KeyToPath[] | undefined, defaultMode: number | undefined): VolumeFile[] {
  const mode = defaultMode ?? POD_DEFAULTS.volumeDefaultMode;
  if (items === undefined) return Object.entries(data).map(([key, content]) => ({ path: key, content, mode }));
  return items.map((item) => {
    const content = data[item.key];
    if (content === undefined) throw new PodConfigError('MissingReference', `${source} has no key ${item.key}`);
    return { path: item.path, content, mode: item.mode ?? mode };
  });
}

/**
 * Writes the files as the kubelet's atomic writer does, into `directory` (created). With the
 * pod's fsGroup, files belong to that group and gain group read (the kubelet's
 * SetVolumeOwnership for read-only volumes); without it they stay root's, modes as given.
 */
export async function writeAtomicVolume(directory: string, files: VolumeFile[], fsGroup?: number): Promise<void> {
  await mkdir(directory, { recursive: true, mode: 0o755 });
  await chmod(directory, 0o755);
  const stamp = `..${new Date().toISOString().replace(/[-:]/g, '_').replace('T', '_').replace('Z', '')}.${process.pid}`;
  const dataDirectory = join(directory, stamp);
  await mkdir(dataDirectory, { mode: 0o755 });
  await chmod(dataDirectory, 0o755);
  for (const file of files) {
    const path = join(dataDirectory, file.path);
    await mkdir(dirname(path), { recursive: true, mode: 0o755 });
    await writeFile(path, file.content);
    await chmod(path, fsGroup === undefined ? file.mode : file.mode | 0o440);
    if (fsGroup !== undefined) await chown(path, 0, fsGroup);
  }
  await symlink(stamp, join(directory, '..data'));
  const topLevel = new Set(files.map((file) => file.path.split('/')[0]!));
  for (const name of topLevel) await symlink(join('..data', name), join(directory, name));
}
