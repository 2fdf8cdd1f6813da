# The two commands a new user needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test test-unit test-e2e test-image lint bench screenshots clean

# Re-installs only when pyproject.toml changed since the last install.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/python -m app.serve

lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy app tests

# Browser tests and image tests run in their own pytest runs (see tests/e2e, tests/image).
test: lint test-unit test-e2e test-image

test-unit: install
	$(BIN)/pytest --ignore=tests/e2e --ignore=tests/image

# axe-core (the accessibility checks) comes from npm into .venv/axe (tests/e2e/axe.py).
test-e2e: install
	@if [ -d tests/e2e ]; then $(BIN)/python -m tests.e2e.gate && $(BIN)/python -m tests.e2e.axe && $(BIN)/pytest tests/e2e || exit $$?; fi

# Builds the Docker image and runs it as a self-hoster would (docker run, compose.yaml,
# compose.scale.yaml). Skips, saying why, where Docker does not answer; fails then with
# CI=true. `.ci/docker-standins` sets Docker up on a machine without Docker Hub.
test-image: install
	$(BIN)/pytest tests/image

# Re-takes the README's pictures (docs/screenshots) from the browser tests.
screenshots: install
	ALLFOURS_SCREENSHOTS=1 $(BIN)/pytest tests/e2e/test_table.py

bench: install
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
