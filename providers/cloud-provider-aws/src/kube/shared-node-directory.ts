/**
 * The provider's node directory, fed by the controllers' shared Node informer (handed over in
 * the initialize context; upstream registers its handlers in `SetInformers`). Until that
 * informer has synced, lookups fall back to resource-based names and private DNS names.
 */
import type { CloudInitializeContext } from '@ccm/core/provider';
import type { NodeDirectory } from '../operations/node-directory.js';
import { IndexedNodeDirectory } from './indexed-node-directory.js';

export function sharedNodeDirectory(context: CloudInitializeContext): NodeDirectory {
  const directory = new IndexedNodeDirectory();
  context.informers.nodes.addHandlers(directory.handlers);
  return directory;
}
