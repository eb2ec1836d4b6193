#!/usr/bin/env bash
# Drops the throw-away databases earlier test runs created (cm_test_*) on the test PostgreSQL server.
set -euo pipefail
url="${CLIPMATRIX_TEST_POSTGRES_URL:-}"
[ -n "$url" ] || exit 0
for db in $(psql "$url" -tAc "SELECT datname FROM pg_database WHERE datname LIKE 'cm\_test\_%'"); do
  psql "$url" -qc "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null
done
