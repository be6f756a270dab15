/** Kubeconfig documents pointing kubectl and client libraries at an emulator. */
import { stringify } from 'yaml';

export interface KubeconfigOptions {
  server: string;
  /** PEM of the serving certificate's CA (https); omitted for http. */
  certificateAuthorityPem?: string;
  /** Cluster, user and context name. Default `kube-emulator`. */
  name?: string;
  /** Default namespace of the context. Default `default`. */
  namespace?: string;
}

export function buildKubeconfig(options: KubeconfigOptions): string {
  const name = options.name ?? 'kube-emulator';
  const cluster: Record<string, unknown> = { server: options.server };
  if (options.certificateAuthorityPem) cluster['certificate-authority-data'] = Buffer.from(options.certificateAuthorityPem, 'utf8').toString('base64');
  // client-node refuses http:// cluster URLs unless TLS verification is marked as skipped.
  else cluster['insecure-skip-tls-verify'] = true;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster }],
    // The emulator does not authenticate; a placeholder token keeps kubectl from prompting for a
    // username over HTTPS.
    users: [{ name, user: { token: 'kube-emulator' } }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: options.namespace ?? 'default' } }],
    'current-context': name,
    preferences: {},
  });
}
