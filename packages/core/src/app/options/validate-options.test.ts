import { describe, expect, it } from 'vitest';
import { CONTROLLER_NAMES } from '../../names/controller-names.js';
import { defineFlagGroup } from './flag-definition.js';
import { parseCommandLine } from './parse-command-line.js';
import { findOptionProblems, validateOptions, validateRouteControllerOptions } from './validate-options.js';

function errorsFor(argv: string[], registeredProviders?: string[]): string[] {
  const result = parseCommandLine(argv);
  if (result.kind !== 'run') throw new Error('expected run');
  return validateOptions(result.options, result.flags, { knownControllers: CONTROLLER_NAMES, ...(registeredProviders ? { registeredProviders } : {}) });
}

describe('validateOptions', () => {
  it('accepts the defaults with a cloud provider', () => {
    expect(errorsFor(['--cloud-provider=fake'])).toEqual([]);
  });

  it.each([
    [[], ['--cloud-provider cannot be empty']],
    [['--cloud-provider=aws', '--controllers=*,-foo,route,bogus'], ['--controllers: "foo" is not in the list of known controllers', '--controllers: "bogus" is not in the list of known controllers']],
    [['--cloud-provider=aws', '--leader-elect-resource-lock=endpoints'], ['--leader-elect-resource-lock: Invalid value: "endpoints": resourceLock value must be "leases"']],
    [['--cloud-provider=aws', '--leader-elect=false', '--leader-elect-resource-lock=endpoints'], []],
    [['--cloud-provider=aws', '--leader-elect-lease-duration=10s'], ['--leader-elect-lease-duration (10s) must be greater than --leader-elect-renew-deadline (10s)']],
    [['--cloud-provider=aws', '--leader-elect-retry-period=9s'], ['--leader-elect-renew-deadline (10s) must be greater than --leader-elect-retry-period × 1.2 (10.8s)']],
    [['--cloud-provider=aws', '--leader-elect-retry-period=0s'], ['--leader-elect-retry-period must be greater than zero (got 0s)']],
    [['--cloud-provider=aws', '--leader-elect-resource-name='], ['--leader-elect-resource-name cannot be empty when --leader-elect is true']],
    [['--cloud-provider=aws', '--concurrent-node-status-updates=0'], []],
    [['--cloud-provider=aws', '--secure-port=0'], []],
    [['--cloud-provider=aws', '--tls-cert-file=/a.crt'], ['--tls-cert-file and --tls-private-key-file must be given together']],
  ])('%j', (argv, expected) => {
    expect(errorsFor(argv)).toEqual(expected);
  });

  it('collects every problem at once, one-flag problems apart from combinations', () => {
    const result = parseCommandLine(['--controllers=nope', '--leader-elect-resource-lock=configmaps', '--leader-elect-lease-duration=-1s', '--tls-cert-file=/a.crt']);
    if (result.kind !== 'run') throw new Error('expected run');
    expect(findOptionProblems(result.options, result.flags, { knownControllers: CONTROLLER_NAMES })).toEqual({
      flagErrors: [
        '--cloud-provider cannot be empty',
        '--controllers: "nope" is not in the list of known controllers',
        '--leader-elect-resource-lock: Invalid value: "configmaps": resourceLock value must be "leases"',
        '--leader-elect-lease-duration must be greater than zero (got -1s)',
      ],
      errors: ['--tls-cert-file and --tls-private-key-file must be given together'],
    });
  });

  it('checks the provider name against the registered providers', () => {
    expect(errorsFor(['--cloud-provider=gce'], ['aws', 'sandbox'])).toEqual(['unknown cloud provider "gce" (this binary provides: "aws", "sandbox")']);
    expect(errorsFor(['--cloud-provider=external'], [])).toEqual(['unknown cloud provider "external" (this binary provides: none)']);
    expect(errorsFor(['--cloud-provider=aws'], ['aws'])).toEqual([]);
  });

  it('runs provider group validation', () => {
    const group = defineFlagGroup('p', { count: { name: 'p-count', type: 'int', default: 0, help: '' } }, { validate: (values) => (values.count > 2 ? ['--p-count too big'] : []) });
    const result = parseCommandLine(['--cloud-provider=x', '--p-count=3'], { additionalFlags: [group] });
    if (result.kind !== 'run') throw new Error('expected run');
    expect(validateOptions(result.options, result.flags, { knownControllers: CONTROLLER_NAMES })).toEqual(['--p-count too big']);
  });
});

describe('validateRouteControllerOptions', () => {
  const optionsFor = (argv: string[]) => {
    const result = parseCommandLine(['--cloud-provider=x', ...argv]);
    if (result.kind !== 'run') throw new Error('expected run');
    return result.options;
  };
  const runs = { routeControllerEnabled: true, routesSupported: true };
  const prefix = 'the route controller needs a valid --cluster-cidr (it runs because --configure-cloud-routes is true and the cloud provider supports routes; set --configure-cloud-routes=false or disable it with --controllers=*,-node-route-controller): ';

  it.each([
    ['routes on by default, no --cluster-cidr (upstream: fatal)', [], runs, [`${prefix}--cluster-cidr is not set`]],
    ['allocate-node-cidrs is not required (upstream since v1.21)', ['--cluster-cidr=10.244.0.0/16'], runs, []],
    ['configure-cloud-routes=false', ['--allocate-node-cidrs', '--configure-cloud-routes=false'], runs, []],
    ['provider without routes', ['--allocate-node-cidrs'], { routeControllerEnabled: true, routesSupported: false }, []],
    ['route controller disabled', ['--allocate-node-cidrs'], { routeControllerEnabled: false, routesSupported: true }, []],
    ['empty cluster CIDR', ['--allocate-node-cidrs'], runs, [`${prefix}--cluster-cidr is not set`]],
    ['valid single', ['--allocate-node-cidrs', '--cluster-cidr=10.244.0.0/16'], runs, []],
    ['valid dual-stack', ['--allocate-node-cidrs', '--cluster-cidr=10.244.0.0/16,fd00:10:244::/56'], runs, []],
  ] as [string, string[], typeof runs, string[]][])('%s', (_name, argv, facts, expected) => {
    expect(validateRouteControllerOptions(optionsFor(argv), facts)).toEqual(expected);
  });
});
