#!/usr/bin/env bash
# The console's API types, generated from the server: writes web/src/api/openapi.json (what
# `clipmatrix openapi` prints, the document /api/openapi.json serves), web/src/api/schema.d.ts
# (openapi-typescript's types of it) and web/src/api/limits.ts (its x-limits). `make api-types` runs
# this; crates/api/tests/openapi_drift.rs, web/src/api/schema.test.ts and limits.test.ts fail when the
# checked-in files drift.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
cargo run -q --bin clipmatrix -- openapi > web/src/api/openapi.json
node web/scripts/api-types.mjs web/src/api/openapi.json web/src/api/schema.d.ts web/src/api/limits.ts
