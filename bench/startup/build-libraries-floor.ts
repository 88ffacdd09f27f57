/**
 * Bundles `libraries-floor-entry.js` the way the CLI is bundled (scripts/library-bundling.ts),
 * beside itself in dist/bench/startup/libraries-floor/: inside the clone, so that the libraries
 * left external (msgpackr) resolve from its node_modules as the CLI's do. Needs rolldown, a
 * development dependency: the benchmark runs from a clone.
 */
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";
import { LIBRARY_BUNDLING } from "../../scripts/library-bundling.js";

const ENTRY = fileURLToPath(new URL("./libraries-floor-entry.js", import.meta.url));
const OUT_DIR = fileURLToPath(new URL("./libraries-floor/", import.meta.url));

let built: Promise<string> | null = null;

/** Returns the bundled floor's entry file, built once per benchmark run (it does not depend on the Node measured). */
export function buildLibrariesFloor(): Promise<string> {
  built ??= bundleLibrariesFloor();
  return built;
}

async function bundleLibrariesFloor(): Promise<string> {
  await rm(OUT_DIR, { recursive: true, force: true });
  const { output } = await build({
    ...LIBRARY_BUNDLING,
    input: ENTRY,
    output: { dir: OUT_DIR, format: "esm", entryFileNames: "libraries-floor.js", chunkFileNames: "[name]-[hash].js" },
    write: true,
  });
  const entry = output.find((chunk) => chunk.type === "chunk" && chunk.isEntry);
  if (entry === undefined) throw new Error("startup: the libraries floor's bundle has no entry");
  return fileURLToPath(new URL(`./libraries-floor/${entry.fileName}`, import.meta.url));
}
