#!/usr/bin/env bash
# The console's API types, generated from the server: writes web/src/api/openapi.json (what
# `clipmatrix openapi` prints, the document /api/openapi.json serves) and web/src/api/schema.d.ts
# (openapi-typescript's types of it). `make api-types` runs this; crates/api/tests/openapi_drift.rs
# and web/src/api/schema.test.ts fail when the checked-in files drift.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
cargo run -q --bin clipmatrix -- openapi > web/src/api/openapi.json
node web/scripts/api-types.mjs web/src/api/openapi.json web/src/api/schema.d.ts
