import type { CloudCallOptions } from './instances.js';

export interface Clusters {
  listClusters(options?: CloudCallOptions): Promise<string[]>;
  master(clusterName: string, options?: CloudCallOptions): Promise<string>;
}
