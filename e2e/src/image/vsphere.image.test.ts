// The vsphere image under the pod runner against vcsim and the real kube-apiserver
// (see provider-image-suite.ts for what is checked).
import { vsphereDriver } from '@ccm/cloud-provider-vsphere/conformance';
import { buildProviderImage } from '../../../scripts/image/build-image.mjs';
import { describeProviderImage } from './provider-image-suite.js';

await describeProviderImage({
  provider: 'vsphere',
  driver: vsphereDriver,
  buildImage: buildProviderImage,
  brokenCloudConfig: 'global:\n  user: [unclosed\n',
});
