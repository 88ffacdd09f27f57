/**
 * The second half of `npm run build`: bundles the CLI that tsc built (dist/src/) with the
 * libraries it uses into dist/bin/ (docs/decisions/0012-bundled-cli.md). A command's start is
 * mostly loading modules, and Node loads one larger file much faster than the hundreds of small
 * ones zod, ioredis, bullmq and the sources are made of. Code splitting keeps every
 * `await import()` of the sources a chunk of its own, loaded when it runs, so `--version` and
 * `jobs list` still load nothing they do not use.
 */
import { rm } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "rolldown";
import { CLI_BUNDLE, CLI_BUNDLE_DIR, CLI_ENTRY_BUILT } from "./cli-bundle-paths.js";
import { LIBRARY_BUNDLING } from "./library-bundling.js";
import { undiciHttp2OnDemand } from "./undici-http2-on-demand.js";

/** The repository: this file runs as dist/scripts/bundle-cli.js. */
const REPO = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The simulators (`sim/`, built to `dist/sim/`) are not production code, so neither in the bundle
 * nor in the package: the commands that start them import them from `dist/sim/` of a clone. From
 * the package that import fails and the CLI says they need a clone
 * (src/cli/simulators-from-clone.ts). Those commands are lazily imported, so their chunks sit in
 * `chunks/`, two folders below `dist/`: the import is written from there, and checked after the
 * build.
 */
const SIM_FROM_CHUNKS = "../../sim/";
const simulatorsLeftOut: Plugin = {
  name: "simulators-left-out",
  resolveId(source, importer) {
    if (importer === undefined || !source.startsWith(".")) return null;
    const simDir = join(REPO, "dist", "sim") + sep;
    const path = resolve(dirname(importer), source);
    return path.startsWith(simDir) ? { id: SIM_FROM_CHUNKS + relative(simDir, path).split(sep).join("/"), external: true } : null;
  },
};

async function main(): Promise<void> {
  const outDir = join(REPO, CLI_BUNDLE_DIR);
  // Chunks are named by content: a stale one left from an earlier build would only mislead.
  await rm(outDir, { recursive: true, force: true });
  const { output } = await build({
    ...LIBRARY_BUNDLING,
    input: join(REPO, CLI_ENTRY_BUILT),
    plugins: [simulatorsLeftOut, undiciHttp2OnDemand],
    output: {
      dir: outDir,
      format: "esm",
      entryFileNames: CLI_BUNDLE.slice(CLI_BUNDLE_DIR.length + 1),
      chunkFileNames: "chunks/[name]-[hash].js",
    },
    write: true,
  });
  for (const chunk of output)
    if (chunk.type === "chunk" && !chunk.fileName.startsWith("chunks/") && chunk.imports.some((id) => id.startsWith(SIM_FROM_CHUNKS)))
      throw new Error(
        `bundle-cli: ${chunk.fileName} imports the simulators but is not in chunks/: ${SIM_FROM_CHUNKS} would miss dist/sim/`,
      );
  // Silent when it succeeds, as tsc is: `npm pack --json` (scripts/check-package.sh) reads
  // the build's stdout, run by `prepare`.
}

await main();
