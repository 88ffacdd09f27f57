import * as nodeModule from "node:module";

/**
 * Turns on Node's module compile cache where this Node has it (`module.enableCompileCache`,
 * Node 22.1+): the V8 code of every module loaded after this call is kept on disk and reused by
 * the next start, which then skips compiling the bundle's chunks (docs/cli.md, "Start time").
 * The cache lives where Node puts it by default, `NODE_COMPILE_CACHE` or else
 * `<os.tmpdir()>/node-compile-cache`, and is keyed by each file's content, so a new build never
 * meets stale code. Where it cannot be written (a read-only file system, a folder of another
 * user) Node reports it and the command runs without one: a cache must never stop a command.
 * On Node 20 this does nothing. `NODE_DISABLE_COMPILE_CACHE=1` turns it off.
 */
export function enableCompileCache(): void {
  // Read through the namespace: Node 20's types (package.json keeps @types/node at 20) and
  // runtime have no such function.
  const enable: unknown = Reflect.get(nodeModule, "enableCompileCache");
  if (typeof enable !== "function") return;
  try {
    enable.call(nodeModule);
  } catch {
    // Not expected (Node reports a failure in the status it returns), but the command comes first.
  }
}
