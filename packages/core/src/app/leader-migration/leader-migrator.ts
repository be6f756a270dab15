/**
 * Which lock a controller runs under during leader migration (k8s.io/controller-manager
 * `pkg/leadermigration` `NewLeaderMigrator` + `FilterFunc`):
 * - `migrated`: the file assigns it to this component (or `*`): it runs under the migration lease;
 * - `unowned`: the file assigns it to another component: this process never starts it;
 * - `non-migrated`: the file does not mention it: it runs under the main lease, as without migration.
 *
 * One deliberate difference: upstream compares the file's names with the controller map's keys
 * exactly, so at upstream HEAD (canonical keys `service-lb-controller`, `node-route-controller`,
 * `cloud-node-lifecycle-controller`) the documented names `route`, `service` and
 * `cloud-node-lifecycle` (also those of its own default configuration) match nothing. Here a
 * name matches its controller through the aliases of `--controllers`, so both spellings work.
 * Names that match no controller of this binary are ignored, as upstream ignores them; they are
 * reported in `unknownNames` so the command can log them once.
 */
import { CONTROLLER_ALIASES } from '../../names/controller-names.js';
import { ANY_COMPONENT, type LeaderMigrationConfiguration } from './leader-migration-configuration.js';

/** The component name of this process in `controllerLeaders[].component`. */
export const CLOUD_CONTROLLER_MANAGER_COMPONENT = 'cloud-controller-manager';

export type MigrationFilterResult = 'migrated' | 'unowned' | 'non-migrated';

export interface LeaderMigrator {
  readonly configuration: LeaderMigrationConfiguration;
  filter(controller: string): MigrationFilterResult;
  /** True when at least one of `controllers` runs under the migration lease. */
  hasMigrated(controllers: readonly string[]): boolean;
  /** File names that match none of `controllers` (after alias resolution). */
  unknownNames(controllers: readonly string[]): string[];
}

export function createLeaderMigrator(
  configuration: LeaderMigrationConfiguration,
  component: string = CLOUD_CONTROLLER_MANAGER_COMPONENT,
  aliases: Readonly<Record<string, string>> = CONTROLLER_ALIASES,
): LeaderMigrator {
  const canonical = (name: string): string => (Object.hasOwn(aliases, name) ? (aliases[name] as string) : name);
  // Like upstream's map, a later entry for the same controller wins.
  const shouldRun = new Map<string, boolean>();
  for (const leader of configuration.controllerLeaders) {
    shouldRun.set(canonical(leader.name), leader.component === component || leader.component === ANY_COMPONENT);
  }
  const filter = (controller: string): MigrationFilterResult => {
    const run = shouldRun.get(controller);
    if (run === undefined) return 'non-migrated';
    return run ? 'migrated' : 'unowned';
  };
  return {
    configuration,
    filter,
    hasMigrated: (controllers) => controllers.some((controller) => filter(controller) === 'migrated'),
    unknownNames: (controllers) =>
      configuration.controllerLeaders.map((leader) => leader.name).filter((name) => !controllers.includes(canonical(name))),
  };
}
