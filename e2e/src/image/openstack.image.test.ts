// The openstack image under the pod runner against Keystone, Neutron, Octavia and the Nova stand-in (Debian's OpenStack services) and the real kube-apiserver
// (see provider-image-suite.ts for what is checked).
import { openStackDriver } from '@ccm/cloud-provider-openstack/conformance';
import { buildProviderImage } from '../../../scripts/image/build-image.mjs';
import type { KubeTestClient } from '../harness/kube-test-client.js';
import { describeProviderImage } from './provider-image-suite.js';

await describeProviderImage({
  provider: 'openstack',
  driver: openStackDriver,
  buildImage: buildProviderImage,
  // The overlay mounts the Secret kube-system/openstack-clouds (clouds.yaml) and leaves it to the
  // user; the driver's cloud.conf carries its credentials itself, so the Secret holds a
  // clouds.yaml the CCM does not read (no use-clouds).
  prepareCluster: async (client: KubeTestClient) => {
    await client.request('POST', '/api/v1/namespaces/kube-system/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'openstack-clouds', namespace: 'kube-system' },
      stringData: { 'clouds.yaml': 'clouds: {}\n' },
    });
  },
  // A syntax error in cloud.conf is reported with follow-on errors (one per required key the
  // broken section no longer gives); a bad value gives the one line this test expects.
  brokenCloudConfig: '[Global]\nauth-url = not a url\nregion = RegionOne\nusername = u\npassword = p\ntenant-name = t\ntenant-domain-name = Default\nuser-domain-name = Default\n',
});
