# The two commands of the README: `make run` and `make test`. Everything else here is what they call.
SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c

DATA_DIR ?= ./data

.PHONY: run test deps test-deps web release test-rust test-web test-e2e bench

run: deps web release
	mkdir -p $(DATA_DIR)
	CLIPMATRIX_DATA_DIR=$(DATA_DIR) CLIPMATRIX_SANDBOX=true ./target/release/clipmatrix serve

test: test-deps web
	cargo build --bin clipmatrix
	$(MAKE) test-rust test-web test-e2e

deps:
	CLIPMATRIX_DATA_DIR=$(DATA_DIR) scripts/install-deps.sh run

test-deps:
	scripts/install-deps.sh test

web:
	npm --prefix web run build --silent

release: web
	cargo build --release --bin clipmatrix

# Rust unit and whole-app tests on SQLite; the same story tests on PostgreSQL when
# CLIPMATRIX_TEST_POSTGRES_URL is set.
test-rust:
	scripts/pg-drop-test-dbs.sh
	cargo test --workspace
	scripts/pg-drop-test-dbs.sh

test-web:
	npm --prefix web test

test-e2e:
	CLIPMATRIX_BIN=$(CURDIR)/target/debug/clipmatrix node e2e/run.mjs

bench:
	cargo build --release --bin clipmatrix
	node bench/api.mjs
	node bench/materials.mjs
