# The two commands of the README: `make run` and `make test`. Everything else here is what they call.
SHELL := /bin/bash
.ONESHELL:
.SHELLFLAGS := -eu -o pipefail -c

DATA_DIR ?= ./data
# Where cargo puts binaries (CARGO_TARGET_DIR when set).
TARGET := $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)

.PHONY: run test deps test-deps test-build web release test-rust test-web test-e2e bench api-types

run: deps web release
	mkdir -p $(DATA_DIR)
	CLIPMATRIX_DATA_DIR=$(DATA_DIR) CLIPMATRIX_SANDBOX=true $(TARGET)/release/clipmatrix serve

test:
	# The console's packages first (the console's build needs them, the server embeds the console); then
	# the rest of the dependencies (speech engines and their models, the S3 server: mostly downloads)
	# install beside the build instead of before it (~4 minutes on a fresh machine).
	scripts/install-deps.sh console
	$(MAKE) -j2 -O test-deps test-build
	# Vitest first, alone: a few CPU-bound minutes whose 60 s test timeouts starved beside the others.
	status=0
	$(MAKE) test-web || status=1
	# Then the Rust and the browser stories side by side: both mostly wait (on the sandbox's clock, job
	# leases, renders, the browser), so together they share the 2 cores instead of leaving half idle one
	# after another. -O prints each suite's output whole when it ends; every suite runs to its end and
	# any failure fails the run.
	$(MAKE) -k -j2 -O test-rust test-e2e || status=1
	exit $$status

# The server binary (e2e) and every test target in one cargo run: built apart, the test targets waited
# for the binary's last crates and link (~5 minutes more on 2 cores); the examples too, which the test
# run builds (without them it compiled three crates again after this, ~30 s).
test-build: web
	cargo build --workspace --tests --examples --bin clipmatrix

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
# cargo-nextest (on these machines) schedules every crate's tests together (.config/nextest.toml);
# plain cargo test runs the same tests where it is missing.
test-rust:
	scripts/pg-drop-test-dbs.sh
	if cargo nextest --version >/dev/null 2>&1; then cargo nextest run --workspace; else cargo test --workspace; fi
	scripts/pg-drop-test-dbs.sh

test-web:
	npm --prefix web test

test-e2e:
	# one spec per area, each with its own server and data; a failing spec does not stop the others.
	# Two at a time: a story mostly waits (on the browser, renders, SSE), so two share the cores well.
	CLIPMATRIX_BIN=$(TARGET)/debug/clipmatrix node --test --test-concurrency=2 --test-reporter=spec e2e/*.spec.mjs

bench:
	CLIPMATRIX_DATA_DIR=$(DATA_DIR) scripts/install-deps.sh bench
	cargo build --release --bin clipmatrix
	node bench/api.mjs
	# Lists at 100k rows of one merchant (operation log, materials, finished videos, release items).
	node bench/lists.mjs
	node bench/materials.mjs
	# Mixing engine against a naive single ffmpeg pass (bench/mix/mix_bench.rs; ~3-5 minutes on 2 cores).
	cargo run --release -p media --example mix_bench
	# Matrix: plan 1,000 accounts x 30 days x 3, publish 10,000 items through the publisher to the sandbox.
	cargo run --release -p app --example publish_bench
	# Creator consoles in chromium: 20 posts over 10 accounts, at most 3 browsers (time per post, memory).
	cargo run --release -p platforms --example browser_bench
	# Activities and NFC: concurrent draws against bare write transactions; the tap page against /healthz.
	cargo run --release -p app --example activities_bench
	# Engagement: comments synced per second; a customer's comment to the auto-reply (poll and webhook).
	cargo run --release -p app --example engagement_bench
	# Reports: the month view of 1,000 accounts x 365 days from the rollup, against the same from the items.
	cargo run --release -p app --example reports_bench
	# Downloads: the peak memory while a zip of 20 x 30 MB finished videos streams (bound: 100 MB).
	cargo run --release -p app --example zip_bench
	# SEO titles: jieba load, keywords from 10,000 Chinese characters, titles per second on one thread.
	cargo run --release -p domain --example seo_bench
	# Copy precheck: 10,000 titles of 20-50 characters against every rule file, one thread (target <= 200 us).
	cargo run --release -p domain --example copy_precheck_bench
	# Duplicate risk: a variant's measuring (signature + 1,000 published) against its render (bench/risk).
	cargo run --release -p media --example risk_bench
	# AI voice: the built-in engine's real-time factor and an audition's time to first audio.
	cargo run --release -p media --example tts_bench
	# One-touch video: a topic -> 5 finished unique variants (bench/aiclip/one_touch.mjs).
	node bench/aiclip/one_touch.mjs
	# Scale-out on PostgreSQL (CLIPMATRIX_TEST_POSTGRES_URL) + moto: render and publish with 1 vs 2 workers,
	# lists at 100k rows with 1 vs 2 API nodes, one render on S3 vs the local folder (bench/scale; ~5 min).
	cargo bench -p app --bench scale_bench

# The console's API types from the server's OpenAPI document (web/src/api/openapi.json and
# schema.d.ts); a Rust and a Vitest test fail when the checked-in files drift.
api-types:
	web/scripts/api-types.sh
