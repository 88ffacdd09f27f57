#!/usr/bin/env bash
# `npm run check:package` (CI runs it after `npm test`, see .ci/run and docs/testing.md): what a
# team gets from the published package. `npm pack` (prepack empties dist/, prepare builds it),
# the tarball's contents, an install of it into a clean project with production dependencies
# only (no TypeScript), then the installed `pim-sync`: --version, and `sim` and `demo` refusing
# plainly (the simulators are not in the package). Everything happens in a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'check-package: %s\n' "$*"; }
fail() { printf 'check-package: FAILED: %s\n' "$*" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/pim-sync-package-XXXXXX")"
trap 'rm -rf "$work"' EXIT

version="$(node -p 'require("./package.json").version')"

say "npm pack"
name="$(npm pack --pack-destination "$work" --json | node -e 'let s="";process.stdin.on("data",(c)=>(s+=c)).on("end",()=>process.stdout.write(JSON.parse(s)[0].filename))')"
tarball="$work/$name"
[[ -f "$tarball" ]] || fail "npm pack made no $tarball"

tar -tzf "$tarball" > "$work/contents"
for needed in package/package.json package/LICENSE package/README.md package/dist/bin/pim-sync.js; do
  grep -qx "$needed" "$work/contents" || fail "$needed is not in the tarball"
done
# Sources (and tsc's module-a-file build of them: the bundle is what runs), the simulators,
# tests, benchmarks, the repository's scripts and anything secret stay out.
if grep -E '^package/(src|sim|test|bench|scripts|node_modules|dist/(bench|scripts|sim|src|test))/|^package/\.env|\.ts$' "$work/contents"; then
  fail "the tarball holds files it should not (listed above)"
fi
say "ok: the tarball holds the bundled CLI (dist/bin), config/, LICENSE and README, and no sources or tests ($(wc -l < "$work/contents") files)"

# A clean project that installs the tarball as a team would: the README's "As a package" block,
# run as written, in order, in a project holding the tarball (production dependencies only, and
# --prefer-offline: what this machine's npm cache holds is not fetched again). npm applies only
# the installing project's overrides and install-script decisions, so the block makes them
# before the install: a denial for the tarball itself (its `prepare` is the build already in
# dist/), for protobufjs and msgpackr-extract, and on Node 20 our two overrides.
mkdir "$work/project"
cp "$tarball" "$work/project/"
(cd "$work/project" && npm init -y > /dev/null)
node -e '
  const readme = require("node:fs").readFileSync("README.md", "utf8");
  const block = /As a package:[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme);
  if (!block) { console.error("README: no sh block under \"As a package\""); process.exit(1); }
  process.stdout.write(block[1].replace(/\\\n/g, " "));
' > "$work/readme-steps.sh"
grep -q "pim-sync-$version.tgz" "$work/readme-steps.sh" || fail "the README's package steps do not name pim-sync-$version.tgz"
say "npm install of the tarball into a clean project, the README's steps:"
sed 's/^/  /' "$work/readme-steps.sh"
sed -i 's/^npm install \(.*\)#.*$/npm install --no-audit --no-fund --omit=dev --prefer-offline \1/' "$work/readme-steps.sh"
(cd "$work/project" && bash -euo pipefail "$work/readme-steps.sh" > "$work/install.log" 2>&1) ||
  fail "the README's package steps failed: $(cat "$work/install.log")"
# A later install in that project, without --ignore-scripts: every install script decided.
(cd "$work/project" && npm install --no-audit --no-fund --omit=dev --prefer-offline >> "$work/install.log" 2>&1) ||
  fail "a second npm install in the project failed: $(cat "$work/install.log")"
# No path of this machine left in the project: the keys npm matches are relative.
if grep -q "$work" "$work/project/package.json"; then fail "package.json names an absolute path: $(cat "$work/project/package.json")"; fi
[[ ! -e "$work/project/node_modules/typescript" ]] || fail "the install pulled TypeScript in"
# No warning at all: an install script allowScripts does not decide (decide it there,
# CONTRIBUTING.md "Install scripts"), or a dependency whose engines refuse Node 20 (pin its last
# version that accepts it in `overrides`, docs/architecture.md "Libraries").
if grep -q '^npm warn' "$work/install.log"; then fail "the install warned: $(cat "$work/install.log")"; fi
bin="$work/project/node_modules/.bin/pim-sync"
[[ -x "$bin" ]] || fail "no pim-sync executable in node_modules/.bin"
say "ok: installed without TypeScript, a build or a warning"

# From the clean project's folder, as its users would run it.
cd "$work/project"
[[ "$("$bin" --version)" == "pim-sync $version" ]] || fail "pim-sync --version printed '$("$bin" --version)', not 'pim-sync $version'"
say "ok: pim-sync --version prints pim-sync $version"

# The simulators are not in the package (they live in a clone's sim/): `sim` and `demo` say so
# plainly, exit 2, and name what to do instead of failing on a missing module.
for command in sim demo; do
  status=0
  "$bin" "$command" > "$work/$command.out" 2>&1 || status=$?
  [[ "$status" == 2 ]] || fail "pim-sync $command exited $status, not 2: $(cat "$work/$command.out")"
  grep -q 'the simulators come with a clone of the repository' "$work/$command.out" ||
    fail "pim-sync $command did not say the simulators come with a clone: $(cat "$work/$command.out")"
done
say "ok: pim-sync sim and demo answer that the simulators come with a clone (exit 2)"
say "passed"
