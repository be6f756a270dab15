/**
 * The flags the OpenStack CCM adds to the core command (upstream
 * `cmd/openstack-cloud-controller-manager/main.go` with `pkg/openstack` `AddExtraFlags`):
 * `--user-agent`, pflag `StringArray`: repeatable, each use one component (a comma is kept), extra
 * data for the User-Agent of every OpenStack API request.
 */
import { defineFlagGroup } from '@ccm/core/app';

export const OPENSTACK_FLAGS = defineFlagGroup('openstack', {
  userAgent: {
    name: 'user-agent',
    type: 'stringArray',
    default: [],
    help: 'Extra data to add to gophercloud user-agent. Use multiple times to add more than one component.',
  },
});

/**
 * The User-Agent prefix of `--user-agent` values: upstream prepends each value to gophercloud's
 * user agent in turn (`UserAgent.Prepend`), so the last value given comes first.
 */
export function userAgentPrefix(values: readonly string[]): string {
  return [...values].reverse().join(' ');
}
