/**
 * The api-versions each resource provider answers. The pinned JS SDKs call Microsoft.Compute
 * 2026-03-01 (@azure/arm-compute 24.1.0) and Microsoft.Network 2025-05-01 (@azure/arm-network
 * 36.0.0; its scale-set NIC and public IP operations use 2018-10-01); the other entries are real
 * neighbouring versions, so a client pinned one release apart still works. Bodies always have the
 * shape of the pinned versions.
 */
import { ArmError } from './arm-error.js';

export const COMPUTE_API_VERSION = '2026-03-01';
export const NETWORK_API_VERSION = '2025-05-01';
/** Microsoft.Network's api-version for the scale-set NIC / public IP views (`virtualMachineScaleSets/.../networkInterfaces`). */
export const NETWORK_SCALE_SET_API_VERSION = '2018-10-01';

export type ApiVersionFamily = 'Microsoft.Resources' | 'Microsoft.Compute' | 'Microsoft.Network' | 'Microsoft.Network/scaleSetViews';

export const SUPPORTED_API_VERSIONS: Readonly<Record<ApiVersionFamily, readonly string[]>> = {
  'Microsoft.Resources': ['2021-04-01', '2022-09-01', '2023-07-01', '2024-03-01', '2024-07-01', '2024-11-01', '2025-04-01'],
  'Microsoft.Compute': ['2024-11-01', '2025-04-01', '2025-11-01', COMPUTE_API_VERSION, '2026-04-01'],
  'Microsoft.Network': ['2024-10-01', '2025-01-01', '2025-03-01', NETWORK_API_VERSION, '2025-07-01', '2025-09-01', '2026-01-01', '2026-03-01'],
  'Microsoft.Network/scaleSetViews': ['2017-03-30', NETWORK_SCALE_SET_API_VERSION],
};

/** Throws ARM's `MissingApiVersionParameter` / `InvalidApiVersionParameter` unless `apiVersion` is served. */
export function checkApiVersion(family: ApiVersionFamily, apiVersion: string | null): void {
  if (apiVersion === null || apiVersion === '') {
    throw new ArmError(400, 'MissingApiVersionParameter', 'The api-version query parameter (?api-version=) is required for all requests.');
  }
  const supported = SUPPORTED_API_VERSIONS[family];
  if (!supported.includes(apiVersion)) {
    throw new ArmError(
      400,
      'InvalidApiVersionParameter',
      `The api-version '${apiVersion}' is invalid. The supported versions are '${[...supported].reverse().join(',')}'.`,
    );
  }
}
