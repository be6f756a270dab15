/**
 * Upstream `initializeWatch` (cmd/vsphere-cloud-controller-manager): the vSphere CPI watches its
 * `--cloud-config` file and exits ("config map <path> has been updated, restarting pod") on the
 * first change, so an edited ConfigMap takes effect through the pod's restart. The kubelet
 * replaces a mounted ConfigMap by swapping a symlink: the watch of the file then reports a
 * rename, which counts as a change too.
 */
import { watch as watchFile } from 'node:fs';

export interface FileWatch {
  close(): void;
}

/** `fs.watch` shape used here; tests may pass another. */
export type WatchFunction = (path: string, onEvent: () => void) => FileWatch;

const defaultWatch: WatchFunction = (path, onEvent) => {
  const watcher = watchFile(path, { persistent: false }, () => onEvent());
  // A watch that fails later (the file's directory removed) is a change as well.
  watcher.on('error', () => onEvent());
  return watcher;
};

/**
 * Calls `onChange` once, on the first event for `path`, and stops watching. Returns undefined
 * when the file cannot be watched (it does not exist): reading the cloud config reports that.
 */
export function watchCloudConfig(path: string, onChange: () => void, watch: WatchFunction = defaultWatch): FileWatch | undefined {
  let fired = false;
  let handle: FileWatch | undefined;
  try {
    handle = watch(path, () => {
      if (fired) return;
      fired = true;
      handle?.close();
      onChange();
    });
  } catch {
    return undefined;
  }
  return handle;
}
