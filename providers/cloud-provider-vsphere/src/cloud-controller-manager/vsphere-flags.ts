/**
 * The flags the vSphere CCM adds to the core command (upstream `options.AddFlags` of
 * cloud-provider-vsphere): `--node-labels`, pflag's `mapStringString`, comma-separated `key=value`
 * pairs, repeatable (later pairs win), an empty value allowed. The labels are added to every node
 * at initialization (InstanceMetadata `additionalLabels`, upstream `AdditionalLabels`).
 */
import { defineFlagGroup } from '@ccm/core/app';

export const VSPHERE_FLAGS = defineFlagGroup('vsphere', {
  nodeLabels: {
    name: 'node-labels',
    type: 'stringList',
    default: [],
    valueName: 'mapStringString',
    help: 'Additional labels to add to vSphere nodes during registration.  Each key must follow kubernetes label format.\nExample: --node-labels=node.foo.bar=vsphere,foo.bar/mapi=',
    check: (entries) => nodeLabelsProblem(entries),
  },
});

/** pflag stringToString: every entry is `key=value` (split at the first `=`). */
export function nodeLabelsProblem(entries: readonly string[]): string | undefined {
  const bad = entries.find((entry) => !entry.includes('='));
  return bad === undefined ? undefined : `${JSON.stringify(bad)} must be formatted as key=value`;
}

/** The labels of `--node-labels` entries; later keys win. Call after {@link nodeLabelsProblem} passed. */
export function parseNodeLabels(entries: readonly string[]): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const entry of entries) {
    const separator = entry.indexOf('=');
    if (separator < 0) throw new Error(nodeLabelsProblem([entry]));
    labels[entry.slice(0, separator)] = entry.slice(separator + 1);
  }
  return labels;
}
