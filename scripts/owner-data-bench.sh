#!/bin/sh
# The owner's Customers and Conversations calls on one owner with 1,000,000
# customers and 100,000 conversations (CA_BENCH_CUSTOMERS,
# CA_BENCH_CONVERSATIONS), on SQLite and then on PostgreSQL
# (CA_TEST_POSTGRES_URL, default the local test server). Prints two tables.
set -e
cd "$(dirname "$0")/.."
echo "== SQLite"
env -u CA_TEST_POSTGRES_URL cargo bench -p ca-server --bench owner_data
echo "== PostgreSQL"
CA_TEST_POSTGRES_URL="${CA_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}" \
  cargo bench -p ca-server --bench owner_data
