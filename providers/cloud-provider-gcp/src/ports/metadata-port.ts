/**
 * The GCE metadata server of the machine the CCM runs on, as the provider needs it: one value by
 * path under `computeMetadata/v1/` (`project/project-id`, `instance/zone`, ...). Only consulted
 * when gce.conf leaves the project, zone or network unset, as upstream.
 */
export interface MetadataPort {
  /** Where the answers come from (`metadata.google.internal.` or `GCE_METADATA_HOST`), for messages. */
  readonly host: string;
  /** The value at `path`; throws a `GceMetadataError` when the server does not answer it. */
  get(path: string): Promise<string>;
}

/** A metadata value that could not be read: the path, and why (unreachable, refused, not found). */
export class GceMetadataError extends Error {
  override readonly name = 'GceMetadataError';
  constructor(
    readonly path: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`metadata server: cannot read ${path}: ${reason}`, options);
  }
}
