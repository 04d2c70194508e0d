#!/bin/sh
# npm start's server. Node runs with the flags of its database: ../embedded.node-flags on the
# embedded one (no DATABASE_URL), which keep the process small (docs/decisions.md, "The embedded
# database's memory"): PGlite's WebAssembly compiled by the baseline compiler only, and a small
# young generation; ../postgres.node-flags on PostgreSQL, which hold the heap's growth under load
# to what its live objects need (docs/decisions.md, issue 52). Both let the server give freed heap
# back once it falls idle (--expose-gc, src/idle-memory-trim.ts).
here=$(dirname "$0")
if [ -z "$DATABASE_URL" ]; then
  flags=$(cat "$here/../embedded.node-flags")
else
  flags=$(cat "$here/../postgres.node-flags")
fi
# shellcheck disable=SC2086 # the flags are words, split on purpose
exec node $flags "$here/../src/main.ts" "$@"
