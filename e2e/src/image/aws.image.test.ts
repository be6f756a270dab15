// The aws image under the pod runner against moto (the AWS simulator) and the real kube-apiserver
// (see provider-image-suite.ts for what is checked).
import { awsDriver } from '@ccm/cloud-provider-aws/conformance';
import { buildProviderImage } from '../../../scripts/image/build-image.mjs';
import { describeProviderImage } from './provider-image-suite.js';

await describeProviderImage({
  provider: 'aws',
  driver: awsDriver,
  buildImage: buildProviderImage,
  brokenCloudConfig: '[Global\nRegion = us-east-1\n',
});
