// The gcp image under the pod runner against the GCE simulator and the real kube-apiserver
// (see provider-image-suite.ts for what is checked).
import { gcpDriver } from '@ccm/cloud-provider-gcp/conformance';
import { buildProviderImage } from '../../../scripts/image/build-image.mjs';
import { describeProviderImage } from './provider-image-suite.js';

await describeProviderImage({
  provider: 'gcp',
  driver: gcpDriver,
  buildImage: buildProviderImage,
  brokenCloudConfig: '[global\nproject-id = p\n',
});
