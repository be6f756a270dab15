/**
 * Starts the in-repo Azure simulator (`@ccm/azure-simulator`: Entra ID + ARM over HTTPS with a
 * throwaway CA) in this process, and writes the cloud config (`azure.json`) that points the
 * provider at it as a custom cloud.
 */
import { startAzureSimulator, type AzureSimulator, type AzureSimulatorOptions } from '@ccm/azure-simulator';

export type { AzureSimulator };

export const SIMULATOR_INSTALL_HINT = 'build the workspace first: npx -y pnpm@10.34.8 build (the simulator is test-infrastructure/azure-simulator)';

/** Why the simulator cannot start here (its package is not built), or undefined. */
export async function simulatorUnavailableReason(): Promise<string | undefined> {
  try {
    await import('@ccm/azure-simulator');
    return undefined;
  } catch (error) {
    return `@ccm/azure-simulator cannot be loaded (${error instanceof Error ? error.message : String(error)})`;
  }
}

export async function launchAzureSimulator(options: AzureSimulatorOptions = {}): Promise<AzureSimulator> {
  return startAzureSimulator({ pollsBeforeDone: 1, ...options });
}

/** `azure.json` for the provider against `simulator` (a custom cloud: its ARM endpoint and authority). */
export function simulatorCloudConfig(simulator: AzureSimulator, settings: Record<string, unknown>): Record<string, unknown> {
  return {
    cloud: 'AzureStackCloud',
    resourceManagerEndpoint: simulator.resourceManagerEndpoint,
    activeDirectoryEndpoint: simulator.activeDirectoryEndpoint,
    tenantId: simulator.tenantId,
    subscriptionId: simulator.subscriptionId,
    aadClientId: simulator.clientId,
    aadClientSecret: simulator.clientSecret,
    location: simulator.location,
    cloudConfigType: 'file',
    ...settings,
  };
}
