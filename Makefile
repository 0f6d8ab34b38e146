# The two commands most people need: `make demo` and `make test`. Everything else is below.
# Targets that talk to a database use DATABASE_URL when set, else the private cluster (make db).

SHELL := /bin/bash

.PHONY: help demo demo-adopt test test-sql test-go stress bench bench-full bench-scale db db-stop migrate generate verify-generated fmt vet clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-18s %s\n", $$1, $$2}'

demo: ## seed a small organization into a fresh database and print it
	@scripts/demo.sh

demo-adopt: ## docs/adoption.md end to end: a GitLab-shaped legacy schema imported, bridged, checked, cut over (ADOPT_NAMESPACES=20000)
	@scripts/demo-adopt.sh

test: ## every check: gofmt, vet, generated files, pgTAP, promtool, squawk on the migrations, go test -race
	@scripts/test.sh

test-sql: ## pgTAP alone, all or the files and folders in T (make test-sql T=tests/namespace_lock_path/)
	@scripts/test.sh sql $(T)

test-go: ## go test -race alone, all or the tests matching RUN (make test-go RUN=TestEveryPathRace)
	@scripts/test.sh go "$(RUN)"

stress: ## random operations under chaos (syncer kills, a PostgreSQL restart), then invariants and counts
	@scripts/stress.sh

bench: ## benchmarks with their baselines at 100k namespaces (about 10 minutes): docs/benchmarks/quick.json, docs/benchmarks.md; exit 3 and the missed targets last when one is missed
	@scripts/bench.sh quick

bench-full: ## the same at 1M namespaces: docs/benchmarks/full.json, docs/benchmarks.md
	@scripts/bench.sh full

bench-scale: ## the same at 10M namespaces, one round each (about three and a half hours and 50 GB of disk; BENCH_ARGS="-scenarios …" for fewer): docs/benchmarks/scale.json, docs/benchmarks.md
	@scripts/bench.sh scale

db: ## start the private PostgreSQL 15 cluster (reused when running) and print DATABASE_URL
	@scripts/db.sh start

db-stop: ## stop the private cluster
	@scripts/db.sh stop

migrate: ## apply the migrations to DATABASE_URL (or the private cluster's database)
	@url=$${DATABASE_URL:-$$(scripts/db.sh start)} && DATABASE_URL=$$url go run ./cmd/migrate

generate: ## regenerate sql/schema.sql, internal/db (sqlc), the diagram in docs/states.md and the flags tables in docs/operations.md
	@scripts/generate.sh write

verify-generated: ## fail when any generated file is stale
	@scripts/generate.sh check

fmt: ## gofmt the tree
	@gofmt -w $$(git ls-files -co --exclude-standard '*.go')

vet: ## go vet
	@go vet ./...

clean: db-stop ## stop the cluster and remove its data directory
	@dir=$$(scripts/db.sh dir) && rm -rf "$$dir"
