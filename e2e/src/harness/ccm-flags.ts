/**
 * The flags the suite gives every CCM, on top of the driver's own (`--cloud-provider`,
 * `--cloud-config`, ...). Periods are short so scenarios finish in seconds.
 */
export interface CommonCcmFlagOptions {
  kubeconfigPath: string;
  securePort: number;
  clusterName?: string;
  clusterCidr?: string;
}

export const E2E_CLUSTER_NAME = 'e2e';
export const E2E_CLUSTER_CIDR = '10.244.0.0/16';

export function commonCcmFlags(options: CommonCcmFlagOptions): string[] {
  return [
    `--kubeconfig=${options.kubeconfigPath}`,
    `--secure-port=${options.securePort}`,
    '--bind-address=127.0.0.1',
    // Anonymous scrapes of /metrics, as most CCM manifests configure it.
    '--authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics',
    '--leader-elect=true',
    '--leader-elect-lease-duration=3s',
    '--leader-elect-renew-deadline=2s',
    '--leader-elect-retry-period=500ms',
    '--node-monitor-period=1s',
    '--node-status-update-frequency=5s',
    '--route-reconciliation-period=1s',
    `--cluster-cidr=${options.clusterCidr ?? E2E_CLUSTER_CIDR}`,
    '--allocate-node-cidrs=true',
    '--configure-cloud-routes=true',
    `--cluster-name=${options.clusterName ?? E2E_CLUSTER_NAME}`,
    '--v=2',
  ];
}
