/**
 * The `kube-system/extension-apiserver-authentication` ConfigMap the kube-apiserver publishes
 * for delegated authentication: `client-ca-file` (from its `--client-ca-file`) and the front
 * proxy settings `requestheader-client-ca-file`, `requestheader-allowed-names`,
 * `requestheader-username-headers`, `requestheader-uid-headers`, `requestheader-group-headers`,
 * `requestheader-extra-headers-prefix` (the lists as JSON string arrays).
 */
import type { X509Certificate } from 'node:crypto';
import { parseCertificateBundle } from './certificate-bundle.js';
import type { RequestHeaderSettings } from './request-header-authenticator.js';

export const AUTHENTICATION_CONFIG_MAP_NAMESPACE = 'kube-system';
export const AUTHENTICATION_CONFIG_MAP_NAME = 'extension-apiserver-authentication';
const WHERE = `configmap/${AUTHENTICATION_CONFIG_MAP_NAME} in ${AUTHENTICATION_CONFIG_MAP_NAMESPACE}`;

/** `undefined` data: the ConfigMap does not exist. */
export type ConfigMapData = Readonly<Record<string, string>> | undefined;

/** The client CA of the ConfigMap; empty when the key is missing or empty. Throws CertificateBundleError. */
export function clientCertificateAuthoritiesFrom(data: ConfigMapData): X509Certificate[] {
  const pem = data?.['client-ca-file'] ?? '';
  return pem.trim() === '' ? [] : parseCertificateBundle(pem, `client-ca-file of ${WHERE}`);
}

/** The front proxy settings of the ConfigMap; no CA (so no request-header authentication) when the key is missing. Throws on bad content. */
export function requestHeaderSettingsFrom(data: ConfigMapData): RequestHeaderSettings {
  const pem = data?.['requestheader-client-ca-file'] ?? '';
  return {
    certificateAuthorities: pem.trim() === '' ? [] : parseCertificateBundle(pem, `requestheader-client-ca-file of ${WHERE}`),
    allowedNames: stringList(data, 'requestheader-allowed-names'),
    usernameHeaders: stringList(data, 'requestheader-username-headers'),
    uidHeaders: stringList(data, 'requestheader-uid-headers'),
    groupHeaders: stringList(data, 'requestheader-group-headers'),
    extraHeaderPrefixes: stringList(data, 'requestheader-extra-headers-prefix'),
  };
}

function stringList(data: ConfigMapData, key: string): string[] {
  const text = data?.[key] ?? '';
  if (text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${key} of ${WHERE} is not a JSON list of strings`);
  }
  if (!Array.isArray(parsed) || parsed.some((item) => typeof item !== 'string')) throw new Error(`${key} of ${WHERE} is not a JSON list of strings`);
  return parsed as string[];
}
