// The azure image under the pod runner against the Azure (ARM) simulator and the real kube-apiserver
// (see provider-image-suite.ts for what is checked).
import { azureDriver } from '@ccm/cloud-provider-azure/conformance';
import { buildProviderImage } from '../../../scripts/image/build-image.mjs';
import { describeProviderImage } from './provider-image-suite.js';

await describeProviderImage({
  provider: 'azure',
  driver: azureDriver,
  buildImage: buildProviderImage,
  brokenCloudConfig: '{"cloud": "AzurePublicCloud", "tenantId": \n',
});
