# Two commands do all set-up on a fresh machine:  `make run`  and  `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
BROWSER := /usr/bin/chromium
STRACE  := /usr/bin/strace

.PHONY: help run test test-fast demo bench eval lint clean rebuild-scores reindex-matches verify compose compact migrate

help:                 ## this list: every target and what it does
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):[^#]*## /\1\t/' | expand -t 18

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --upgrade --quiet pip
	$(VENV)/bin/pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

run: $(STAMP)         ## the whole stack: three services, consumers, two bot workers
	$(PY) -m deploy.run

$(BROWSER):           ## the viewer's tests drive Debian's chromium (installed as root)
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver

test: $(STAMP) $(BROWSER)  ## the whole test suite (own Redis servers, own services, a headless browser)
	$(PY) -m pytest -n 2 --dist loadfile

test-fast: $(STAMP)   ## the inner loop, no server started: unit tests + store tests on fakeredis (tests/support/fast.py)
	$(PY) -m pytest -n 2 -p tests.support.fast

compose:              ## the whole stack in containers (Docker with the compose plugin): deploy/compose.yaml
	@test -f deploy/.env || (umask 077 && echo "AUTH_SECRET=$$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')" > deploy/.env)
	docker compose -f deploy/compose.yaml up -d --build

demo: $(STAMP)        ## with `make run` going: a full match over HTTP (GAME=arkon by default); finds the stack in .data/stack.json
	$(PY) -m scripts.demo --game $(or $(GAME),arkon)

$(STRACE):            ## bench.move_cost counts and slows fsyncs with strace (Debian's, installed as root)
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq strace

bench: $(STAMP) $(STRACE)  ## benchmarks; results to docs/benchmarks.md. QUICK=1: shorter runs; ONLY=bench.replay: just those (no doc)
	$(PY) -m bench.run_all $(if $(QUICK),--quick) $(foreach b,$(ONLY),--only $(b))

# rebuild-scores, reindex-matches, migrate, compact: on REDIS_URL (or REDIS_CLUSTER_NODES) when set, else on
# the stack `make run` recorded in .data/stack.json (DATA_DIR), else redis://127.0.0.1:6379/0; each says which.
rebuild-scores: $(STAMP)  ## drop scoring data and rescore every finished match
	$(PY) -m services.scoring.rebuild

reindex-matches: $(STAMP)  ## drop the match index and rebuild it from every match's log
	$(PY) -m services.rules.indexer --rebuild

migrate: $(STAMP)     ## run every schema migration now (each process also does at start); STATUS=1: only show
	$(PY) -m deploy.migrate $(if $(STATUS),--status)

compact: $(STAMP)     ## compact every finished match now (COMPACT_AFTER_S does it in the background)
	$(PY) -m services.rules.compact

# make exits 2 whenever a command fails, so `make verify` exits 0 (genuine) or 2 (anything else; make's last
# line, "Error N", gives the verifier's status). scripts/verify exits with the verifier's own 0/1/2/3.
verify: $(STAMP)      ## check an exported match log offline: make verify FILE=match.ndjson (MATCH=<id>: download it first)
	@scripts/verify $(if $(MATCH),--download $(MATCH)) $(FILE)

clean:
	rm -rf $(VENV) .data
