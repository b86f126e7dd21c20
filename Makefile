# Two commands on a fresh clone: `make run` starts the platform, `make test` runs every test.
# Both bootstrap what they need: uv (from PyPI, if absent) and the locked environment.
SHELL := /bin/bash
PYTHON ?= python3
UV := $(shell command -v uv 2>/dev/null || echo "$(PYTHON) -m uv")
SERVICES := gateway tournament-director table-engine wallet rating totalizator
PACKAGES := platform_kit platform_runner gateway tournament_director table_engine wallet rating totalizator
# Parallel workers for the test suite (the machines have 2 cores).
WORKERS ?= 2

.PHONY: bootstrap run run-distributed test test-fast e2e lint format contracts bench clean

bootstrap:
	@command -v uv >/dev/null 2>&1 || $(PYTHON) -m uv --version >/dev/null 2>&1 || $(PYTHON) -m pip install --quiet uv
	@$(UV) sync --all-groups --frozen --quiet

## Start the whole platform in one process on embedded defaults (in-memory bus, SQLite under ./data).
run: bootstrap
	$(UV) run platform standalone

## Start every service as its own process on RabbitMQ and PostgreSQL (URLs from the environment).
run-distributed: bootstrap
	./scripts/run-distributed.sh

## The whole test suite: in parallel, then the few tests that restart shared servers, alone.
test: bootstrap
	$(UV) run pytest -n $(WORKERS) -m "not serial"
	$(UV) run pytest -m serial

## Unit tests only (no servers needed).
test-fast: bootstrap
	$(UV) run pytest -n $(WORKERS) -m "not serial and not postgres and not rabbitmq and not e2e"

## The end-to-end runs alone: six service processes on RabbitMQ + PostgreSQL, bots, faults (also part of `test`).
e2e: bootstrap
	$(UV) run pytest tests-e2e -m serial

lint: bootstrap
	$(UV) run ruff check .
	$(UV) run ruff format --check .
	$(UV) run mypy $(addprefix -p ,$(PACKAGES))
	MYPYPATH=tests-e2e:bench $(UV) run mypy bench/bench_capacity.py bench/capacity

format: bootstrap
	$(UV) run ruff check --fix .
	$(UV) run ruff format .

## Regenerate contracts/ (OpenAPI per service, AsyncAPI, JSON Schema per event) from the code.
contracts: bootstrap
	$(UV) run platform contracts

bench: bootstrap
	@for script in bench/bench_*.py; do echo "== $$script"; $(UV) run python $$script || exit 1; done

clean:
	rm -rf data .pytest_cache .mypy_cache .ruff_cache
