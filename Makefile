# One-command entry points; each sets up what it needs on a fresh machine.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: messages run test test-fast test-js test-browser lint bench setup chromium test-tools clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

## make run: set up and serve with the embedded SQLite database; prints http://localhost:8000 (where
## passkeys work) and opens it in this computer's browser when there is a desktop to show it on.
run: $(STAMP)
	$(VENV)/bin/motable serve --open

# Debian packages the tests drive: Chromium (browser tests), nginx and docker-compose (the shipped
# proxy config and compose file are checked for real). Installed only when missing.
APT_INSTALL = DEBIAN_FRONTEND=noninteractive apt-get install -y -qq
SUDO = $(if $(filter 0,$(shell id -u)),,sudo)

chromium:
	@command -v chromium >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) $(APT_INSTALL) chromium; }

test-tools: chromium node_modules/.package-lock.json
	@{ command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; } && command -v docker-compose >/dev/null 2>&1 || \
	  { $(SUDO) apt-get update -qq && $(SUDO) $(APT_INSTALL) nginx-light docker-compose; }

# axe-core for the browser tests' accessibility checks (package.json, package-lock.json), from npm.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --silent

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports --no-cache
	@for f in static/js/*.js static/js/games/*.js static/js/games/*/*.js; do node --experimental-default-type=module --check $$f || exit 1; done

## make messages: after changing any words a player reads, bring every language's catalogue up to date
## (docs/translating.md).
messages: $(STAMP)
	$(VENV)/bin/motable messages

## make test-js: the browser client's DOM-free modules under Node's own test runner.
test-js:
	node --test tests/js/

# Test workers (pytest-xdist): most tests wait on a server, a socket or a browser, so more workers than
# cores pays. WORKERS=0 runs every test in this one process (for a debugger, or to read a test's output).
WORKERS ?= 4
BROWSER_WORKERS ?= 3
XDIST = $(if $(filter 0,$(1)),-p no:xdist,-n $(1))

## make test: set up (virtualenv, packages, Chromium, nginx, docker-compose) and run lint plus every test.
test: $(STAMP) test-tools lint test-js
	$(VENV)/bin/pytest -m "not browser" $(call XDIST,$(WORKERS))
	$(VENV)/bin/pytest -m browser $(call XDIST,$(BROWSER_WORKERS))

test-fast: $(STAMP) test-js
	$(VENV)/bin/pytest -m "not browser and not slow" $(call XDIST,$(WORKERS))

test-browser: $(STAMP) chromium node_modules/.package-lock.json
	$(VENV)/bin/pytest -m browser $(call XDIST,$(BROWSER_WORKERS))

bench: $(STAMP)
	$(PY) -m bench.engines

clean:
	rm -rf $(VENV)
