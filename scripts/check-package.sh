#!/bin/sh
# `check:package` of a published package, run from its directory after its build (`pnpm check:package`; arguments go
# to attw): the package packed once as `pnpm publish` packs it (its publishConfig applied, `workspace:` ranges
# replaced), then `publint --strict` and attw on that tarball. Given the directory, each packed it again on its own
# (publint through pnpm, `attw --pack` through npm): two more package-manager processes a package, a second of CPU
# each, on every CI run.
set -eu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pnpm pack --pack-destination "$work" >/dev/null
tarball=$(ls "$work"/*.tgz)
publint --strict "$tarball"
attw "$tarball" "$@"
