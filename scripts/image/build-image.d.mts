/** See build-image.mjs. */
export declare const repositoryRoot: string;
export declare const defaultOutputRoot: string;
export declare const defaultCacheDirectory: string;

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
  /** The reference in index.json (io.containerd.image.name; ref.name holds the tag) and manifest.json, e.g. 'ghcr.io/ccm-ts/aws-cloud-controller-manager:v0.1.0'. */
  imageReference: string;
}

export interface BuildProviderImageOptions {
  /** The short provider name: sandbox, aws, gcp, azure, openstack, vsphere. */
  provider: string;
  /** Where <provider>/ goes; default <repository>/.images. */
  outputRoot?: string;
  /** When to bundle the provider's built dist/ first (scripts/bundle-provider.mjs): default 'if-missing'. */
  bundle?: 'if-missing' | 'always' | 'never';
  /** Where checked inputs and compressed layers are cached; default <repository>/.images/.cache. */
  cacheDirectory?: string;
  /** false: compress every layer again instead of reusing the cached one. */
  layerCache?: boolean;
  /** The commit time (seconds) and revision to stamp; default: SOURCE_DATE_EPOCH or the last commit's time, and HEAD. */
  stamp?: SourceStamp;
}

export interface SourceStamp {
  epoch: number;
  created: string;
  revision: string;
}

/** The commit time and revision an image is stamped with (SOURCE_DATE_EPOCH, else git). */
export declare function sourceStamp(root?: string, environment?: Record<string, string | undefined>): SourceStamp;

/** Builds one provider's image from its bundle (made from the built dist/ when missing, by default). */
export declare function buildProviderImage(options: BuildProviderImageOptions): Promise<BuiltImage>;

export declare class ImageBuildError extends Error {
  kind: 'unknown-provider' | 'bad-provider-package' | 'missing-bundle' | 'download-failed' | 'checksum-mismatch' | 'too-large' | 'no-commit-time';
}

export declare function knownProviders(root?: string): string[];
