/**
 * Where the CLI's entry is built and where its bundle goes, relative to the repository (and to
 * the package's root once installed). The one place that names them: `scripts/bundle-cli.ts`
 * builds from the first into the second; the tests, the start-up benchmark and the image check
 * run the second. package.json's `bin` and `files`, the Dockerfile and scripts/check-package.sh
 * cannot import this and name the bundle themselves: change them together.
 */

/** What `tsc -p tsconfig.build.json` makes of src/cli/bin.ts: the bundle's entry. Moves with src/cli/. */
export const CLI_ENTRY_BUILT = "dist/src/cli/bin.js";

/** The bundled CLI: one file for the entry, its lazily imported parts in chunks/ beside it. */
export const CLI_BUNDLE_DIR = "dist/bin";
export const CLI_BUNDLE = `${CLI_BUNDLE_DIR}/pim-sync.js`;
