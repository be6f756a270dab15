// The daemonless, reproducible image build of one provider (issue 22): an OCI image layout plus a
// `docker load`/`podman load`-able tarball under .images/<provider>/, from pinned inputs only.
//
//   import { buildProviderImage } from '../scripts/image/build-image.mjs';
//   const image = await buildProviderImage({ provider: 'aws' });
//
// The CLI is scripts/image/main.mjs (`pnpm image build --provider <cloud>` / `--all`).
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where images go unless told otherwise (ignored by git). */
export const defaultOutputRoot = join(repositoryRoot, '.images');

/**
 * @typedef {object} BuiltImage
 * @property {string} provider         the short provider name, e.g. 'aws'
 * @property {string} layoutDirectory  the OCI image layout directory (.images/<provider>/oci)
 * @property {string} tarball          the tarball for `docker load` / `podman load` (.images/<provider>/image.tar)
 * @property {string} manifestDigest   'sha256:<hex>' of the image manifest
 * @property {number} compressedSize   bytes: config + compressed layers + manifest
 * @property {string} imageReference   the reference name annotated in index.json and manifest.json, e.g. 'ghcr.io/ccm-ts/aws-cloud-controller-manager:0.1.0'
 */

/**
 * Builds one provider's image.
 * @param {{ provider: string, outputRoot?: string }} options
 * @returns {Promise<BuiltImage>}
 */
export async function buildProviderImage({ provider, outputRoot = defaultOutputRoot }) {
  throw new Error(`buildProviderImage(${provider}, ${outputRoot}): not implemented yet`);
}
