# One-command entry points; each sets up what it needs on a fresh machine.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-fast test-js test-browser lint bench setup chromium clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

## make run: set up and serve on http://127.0.0.1:8000 with the embedded SQLite database.
run: $(STAMP)
	$(VENV)/bin/motable serve

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; fi; }

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	@for f in static/js/*.js static/js/games/*.js; do node --experimental-default-type=module --check $$f || exit 1; done

## make test-js: the browser client's DOM-free modules under Node's own test runner.
test-js:
	node --test tests/js/

## make test: set up (virtualenv, packages, Chromium) and run lint plus every test.
test: $(STAMP) chromium lint test-js
	$(VENV)/bin/pytest -m "not browser"
	$(VENV)/bin/pytest -m browser

test-fast: $(STAMP) test-js
	$(VENV)/bin/pytest -m "not browser and not slow"

test-browser: $(STAMP) chromium
	$(VENV)/bin/pytest -m browser

bench: $(STAMP)
	$(PY) -m bench.engines

clean:
	rm -rf $(VENV)
