/**
 * Checks run once at startup, in the background: every vCenter answers (login works), its
 * configured datacenters exist, and the configured zone/region tag categories exist. Problems
 * are logged once through the ProblemReporter (the port decorator and the discovery report
 * theirs); nothing here stops the controllers.
 */
import type { Logger } from '@ccm/core/logging';
import { errorMessage } from '../errors.js';
import type { NodeDiscovery } from './node-discovery.js';
import type { ProblemReporter } from './problem-reporter.js';
import type { ZoneLookup } from './zone-lookup.js';

export async function checkVcenters(discovery: NodeDiscovery, zones: ZoneLookup, reporter: ProblemReporter, logger: Logger, signal?: AbortSignal): Promise<void> {
  await Promise.all(
    discovery.targets.map(async (target) => {
      const name = target.config.name;
      try {
        const { datacenters } = await discovery.datacentersOf(target);
        logger.info('Connected to vCenter', { vcenter: name, server: target.config.server, datacenters: datacenters.map((datacenter) => datacenter.path) });
      } catch (error) {
        // Reported by the port decorator (one line per problem); nothing more to check here.
        logger.verbose(2, 'vCenter check failed', { vcenter: name, error: errorMessage(error) });
        return;
      }
      if (!zones.enabled) return;
      try {
        const missing = await zones.missingCategories(target.port.tagging, signal);
        const key = `vcenter ${JSON.stringify(name)}: tag categories`;
        if (missing.length === 0) reporter.resolve(key);
        else {
          reporter.report(
            key,
            `tag categor${missing.length === 1 ? 'y' : 'ies'} ${missing.map((category) => JSON.stringify(category)).join(', ')} (labels.zone/labels.region) do${missing.length === 1 ? 'es' : ''} not exist on vCenter ${JSON.stringify(name)}: nodes there cannot get a zone and stay uninitialized`,
            { vcenter: name },
          );
        }
      } catch (error) {
        logger.verbose(2, 'Tag category check failed', { vcenter: name, error: errorMessage(error) });
      }
    }),
  );
}
