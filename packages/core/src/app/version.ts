/** The @ccm/core version (kept equal to packages/core/package.json by a test). Bins may report their own. */
export const CCM_CORE_VERSION = '0.1.0';
