#!/bin/sh
# npm start's server. On the embedded database (no DATABASE_URL) Node runs with the flags in
# ../embedded.node-flags, which keep the process small (docs/decisions.md, "The embedded
# database's memory"): PGlite's WebAssembly compiled by the baseline compiler only, and a small
# young generation. On PostgreSQL they would cost throughput and save little, so they are left off.
here=$(dirname "$0")
if [ -z "$DATABASE_URL" ]; then
  # shellcheck disable=SC2046 # the flags are words, split on purpose
  exec node $(cat "$here/../embedded.node-flags") "$here/../src/main.ts" "$@"
fi
exec node "$here/../src/main.ts" "$@"
