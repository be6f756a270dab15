/** See build-image.mjs. */
export declare const repositoryRoot: string;
export declare const defaultOutputRoot: string;

export interface BuiltImage {
  /** The short provider name, e.g. 'aws'. */
  provider: string;
  /** The OCI image layout directory (.images/<provider>/oci). */
  layoutDirectory: string;
  /** The tarball for `docker load` / `podman load` (.images/<provider>/image.tar). */
  tarball: string;
  /** 'sha256:<hex>' of the image manifest. */
  manifestDigest: string;
  /** Bytes: config + compressed layers + manifest. */
  compressedSize: number;
  /** The reference annotated in index.json and manifest.json, e.g. 'ghcr.io/ccm-ts/aws-cloud-controller-manager:0.1.0'. */
  imageReference: string;
}

export interface BuildProviderImageOptions {
  /** The short provider name: sandbox, aws, gcp, azure, openstack, vsphere. */
  provider: string;
  /** Where <provider>/ goes; default <repository>/.images. */
  outputRoot?: string;
}

export declare function buildProviderImage(options: BuildProviderImageOptions): Promise<BuiltImage>;
