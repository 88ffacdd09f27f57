#!/usr/bin/env bash
# `npm run check:package` (CI runs it after `npm test`, see .ci/run and docs/testing.md): what a
# team gets from the published package. `npm pack` (prepack empties dist/, prepare builds it),
# the tarball's contents, an install of it into a clean project with production dependencies
# only (no TypeScript), then the installed `pim-sync`: --version, and `sim` and `demo` while the
# package ships the simulators. Everything happens in a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'check-package: %s\n' "$*"; }
fail() { printf 'check-package: FAILED: %s\n' "$*" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/pim-sync-package-XXXXXX")"
sim_pid=""
cleanup() {
  if [[ -n "$sim_pid" ]] && kill -0 "$sim_pid" 2>/dev/null; then
    kill "$sim_pid" 2>/dev/null || true
    wait "$sim_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# Waits (bounded, so a hang ends) until FILE holds a line matching PATTERN.
wait_for_line() {
  local file="$1" pattern="$2" what="$3"
  for _ in $(seq 1 600); do
    grep -qE "$pattern" "$file" 2>/dev/null && return 0
    if [[ -n "$sim_pid" ]] && ! kill -0 "$sim_pid" 2>/dev/null; then break; fi
    sleep 0.2
  done
  fail "no $what; output: $(cat "$file")"
}

version="$(node -p 'require("./package.json").version')"

say "npm pack"
name="$(npm pack --pack-destination "$work" --json | node -e 'let s="";process.stdin.on("data",(c)=>(s+=c)).on("end",()=>process.stdout.write(JSON.parse(s)[0].filename))')"
tarball="$work/$name"
[[ -f "$tarball" ]] || fail "npm pack made no $tarball"

tar -tzf "$tarball" > "$work/contents"
for needed in package/package.json package/LICENSE package/README.md package/dist/bin/pim-sync.js package/config/sim-catalog.json; do
  grep -qx "$needed" "$work/contents" || fail "$needed is not in the tarball"
done
# Sources (and tsc's module-a-file build of them: the bundle is what runs), tests, benchmarks,
# the repository's scripts and anything secret stay out.
if grep -E '^package/(src|test|bench|scripts|node_modules|dist/(bench|scripts|src|test))/|^package/\.env|\.ts$' "$work/contents"; then
  fail "the tarball holds files it should not (listed above)"
fi
say "ok: the tarball holds the bundled CLI (dist/bin), config/, LICENSE and README, and no sources or tests ($(wc -l < "$work/contents") files)"

# A clean project that installs the tarball as a team would (README, "As a package"),
# production dependencies only; --prefer-offline: what this machine's npm cache holds is not
# fetched again. npm applies only the installing project's overrides and install-script
# decisions, so the project makes those a team on Node 20 makes: our `overrides` (the last
# versions of two nested dependencies that accept Node 20), our `allowScripts`, and a denial
# for the tarball itself, whose `prepare` (the build, already in dist/) npm counts as an
# install script of a non-registry dependency.
mkdir "$work/project"
node -e '
  const ours = require("./package.json");
  const allowScripts = { ...ours.allowScripts, [`file:${process.argv[2]}`]: false };
  const project = { name: "pim-sync-package-check", private: true, allowScripts, overrides: ours.overrides };
  require("node:fs").writeFileSync(process.argv[1], JSON.stringify(project, null, 2));
' "$work/project/package.json" "$tarball"
say "npm install of the tarball into a clean project"
(cd "$work/project" && npm install --no-audit --no-fund --omit=dev --prefer-offline "$tarball" > "$work/install.log" 2>&1) ||
  fail "npm install of the tarball failed: $(cat "$work/install.log")"
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

# The simulators leave the production package in a later change: `sim` and `demo` are checked
# while the installed CLI lists them, and the check says plainly when it does not.
commands="$("$bin" --help)"
if grep -qE '^  sim ' <<< "$commands"; then
  "$bin" sim --pim-port 0 --service-port 0 --activation-port 0 > "$work/sim.out" 2>&1 &
  sim_pid=$!
  wait_for_line "$work/sim.out" '^Press Ctrl-C to stop\.$' "'Press Ctrl-C to stop.' from pim-sync sim"
  service_url="$(sed -nE 's/^Configuration-service simulator: +(http:[^ ]+).*/\1/p' "$work/sim.out")"
  code="$(curl -s -o /dev/null -w '%{http_code}' "$service_url/")" || true
  [[ "$code" =~ ^[1-5][0-9][0-9]$ ]] || fail "the configuration-service simulator at '$service_url' did not answer"
  kill -TERM "$sim_pid"
  sim_status=0
  wait "$sim_pid" || sim_status=$?
  sim_pid=""
  [[ "$sim_status" == 0 ]] || fail "pim-sync sim exited $sim_status on SIGTERM: $(cat "$work/sim.out")"
  say "ok: pim-sync sim started the simulators (service answered $code) and stopped on SIGTERM"
else
  say "pim-sync sim is not in this package (the simulators moved out of it): not run"
fi
if grep -qE '^  demo ' <<< "$commands"; then
  "$bin" demo > "$work/demo.out" 2>&1 || fail "pim-sync demo failed: $(cat "$work/demo.out")"
  grep -q 'during the second sync: 0$' "$work/demo.out" || fail "pim-sync demo's second sync wrote: $(cat "$work/demo.out")"
  say "ok: pim-sync demo ran its two syncs (the second wrote nothing)"
else
  say "pim-sync demo is not in this package (the simulators moved out of it): not run"
fi
say "passed"
