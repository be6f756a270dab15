/**
 * What the AWS binary adds to core's command (upstream `cmd/aws-cloud-controller-manager`): the
 * tagging controller's flags, and the `tagging` controller, disabled by default.
 */
import { CONTROLLERS_DISABLED_BY_DEFAULT, defaultControllerConstructors, type RunCloudControllerManagerOptions } from '@ccm/core/app';
import { createTaggingController, TAGGING_CONTROLLER_NAME, type TaggingControllerOptions } from './tagging-controller.js';
import { TAGGING_CONTROLLER_FLAGS, taggingSettingsOf, type TaggingSettings } from './tagging-flags.js';

export type AwsControllerManagerExtensions = Required<Pick<RunCloudControllerManagerOptions, 'additionalFlags' | 'onFlagsParsed' | 'controllerConstructors' | 'controllersDisabledByDefault'>>;

/** Spread into `runCloudControllerManager`'s settings. */
export function awsControllerManagerExtensions(options: TaggingControllerOptions = {}): AwsControllerManagerExtensions {
  let settings: TaggingSettings | undefined;
  return {
    additionalFlags: [TAGGING_CONTROLLER_FLAGS],
    onFlagsParsed: (flags) => {
      settings = taggingSettingsOf(flags.valuesOf(TAGGING_CONTROLLER_FLAGS));
    },
    controllerConstructors: {
      ...defaultControllerConstructors,
      [TAGGING_CONTROLLER_NAME]: (context) => {
        if (settings === undefined) throw new Error('the tagging controller was built before the flags were parsed');
        return createTaggingController(context, settings, options);
      },
    },
    controllersDisabledByDefault: new Set([...CONTROLLERS_DISABLED_BY_DEFAULT, TAGGING_CONTROLLER_NAME]),
  };
}
