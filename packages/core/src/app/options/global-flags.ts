import { defineFlagGroup } from './flag-definition.js';

/** Upstream `global` section: `--version` and `-h/--help`. */
export const globalFlags = defineFlagGroup('global', {
  version: {
    name: 'version',
    type: 'string',
    valueName: 'version[=true]',
    noValueDefault: 'true',
    default: 'false',
    help: '--version, --version=raw prints version information and quits',
    check: (value) => (['true', 'false', 'raw'].includes(value) ? undefined : 'use --version, --version=raw or --version=false'),
  },
  help: {
    name: 'help',
    shorthand: 'h',
    type: 'bool',
    default: false,
    help: 'help for the command',
  },
});
