# The two commands a new user needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install icons catalogs messages run rebuild-careers test test-unit test-e2e test-image flakes lint bench screenshots clean

# Re-installs only when pyproject.toml changed since the last install.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) catalogs

# The interface's languages (app/i18n.py, docs/translating.md): each catalog's .po is kept in
# git, its compiled .mo is built here, again whenever its .po changes.
LOCALES := fr de ms lb
PO := $(foreach l,$(LOCALES),app/locale/$(l)/LC_MESSAGES/messages.po)
MO := $(PO:.po=.mo)

app/locale/%/LC_MESSAGES/messages.mo: app/locale/%/LC_MESSAGES/messages.po $(STAMP)
	$(BIN)/pybabel -q compile --domain messages --input-file $< --output-file $@ --locale $*

catalogs: $(MO)

# Extracts every English text of app/ again and brings each catalog up to date with it: new
# texts come in untranslated, gone ones leave. Sorted and without line numbers, so that two
# branches that each add a text merge without a conflict.
messages: $(STAMP)
	$(BIN)/pybabel -q extract --mapping-file babel.cfg --no-location --sort-output \
		--add-comments Translators: --keyword N_ --project "All Fours" --width 100 \
		--output-file $(VENV)/messages.pot app
	$(BIN)/pybabel -q update --input-file $(VENV)/messages.pot --output-dir app/locale \
		--domain messages --ignore-obsolete --no-fuzzy-matching --ignore-pot-creation-date \
		--width 100

# The installed app's icons (app/static/icons, kept in git), drawn again from our own cards.
icons: $(STAMP)
	$(BIN)/python -m app.web.app_icon

run: install
	$(BIN)/python -m app.serve

# Players' careers and ratings counted again from the game records (app/services/career.py).
rebuild-careers: install
	$(BIN)/python -m app.services.rebuild_careers

lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy app tests
	$(BIN)/lint-imports

# Browser tests and image tests run in their own pytest runs (see tests/e2e, tests/image).
# The suites are independent and mostly wait on different things (the unit suite on the CPU,
# the browser suite on a server and a browser, the image suite on Docker), so on two cores
# they run side by side: the unit suite in one lane, the browser suite, the image suite and
# the hosting tests (servers in subprocesses: waits more than work) in the other, which
# balances the two lanes' times. Each writes its own log, printed whole once both lanes are done, with its exit
# code; `make test` fails if any suite failed. Each suite ends with its 30 slowest tests
# (--durations=30), where the suite's own time goes.
LOGS := $(VENV)/test-logs
test: lint
	@rm -rf $(LOGS) && mkdir -p $(LOGS)
	@echo "unit suite beside the browser, image and hosting suites (logs: $(LOGS))"
	@{ $(MAKE) --no-print-directory test-unit UNIT="--ignore=tests/hosting" > $(LOGS)/unit.log 2>&1; \
	  echo $$? > $(LOGS)/unit.rc; } & \
	{ $(MAKE) --no-print-directory test-e2e > $(LOGS)/e2e.log 2>&1; echo $$? > $(LOGS)/e2e.rc; \
	  $(MAKE) --no-print-directory test-image > $(LOGS)/image.log 2>&1; echo $$? > $(LOGS)/image.rc; \
	  $(BIN)/pytest --durations=30 tests/hosting > $(LOGS)/hosting.log 2>&1; \
	  echo $$? > $(LOGS)/hosting.rc; } & \
	wait
	@failed=""; for suite in unit e2e image hosting; do \
	  rc=$$(cat $(LOGS)/$$suite.rc 2>/dev/null || echo 1); \
	  echo "=================== $$suite suite: exit $$rc ==================="; \
	  cat $(LOGS)/$$suite.log; \
	  [ "$$rc" = 0 ] || failed="$$failed $$suite"; \
	done; \
	if [ -n "$$failed" ]; then echo "FAILED:$$failed"; exit 1; fi; echo "all suites passed"

# Every test but the browser's and the image's (UNIT= more pytest options: `make test` runs
# tests/hosting in the other lane).
test-unit: install
	$(BIN)/pytest --durations=30 --ignore=tests/e2e --ignore=tests/image $(UNIT)

# axe-core (the accessibility checks) comes from npm into .venv/axe (tests/e2e/axe.py).
test-e2e: install
	@if [ -d tests/e2e ]; then $(BIN)/python -m tests.e2e.gate && $(BIN)/python -m tests.e2e.axe && $(BIN)/pytest --durations=30 tests/e2e || exit $$?; fi

# The flake finder (tests/e2e/flakes.py): the browser suite, or the part FLAKES names, RUNS
# times with a busy process per core beside it (as CI's other lane is), and each test that
# failed once with its failures and where their logs are. Run it before submitting a change
# to the pages or the streams: `make flakes FLAKES=tests/e2e/test_table.py RUNS=3`.
FLAKES ?= tests/e2e
RUNS ?= 5
flakes: install
	$(BIN)/python -m tests.e2e.gate && $(BIN)/python -m tests.e2e.axe
	ALLFOURS_REQUIRE_BROWSER=1 $(BIN)/python -m tests.e2e.flakes --runs $(RUNS) $(FLAKES)

# Builds the Docker image and runs it as a self-hoster would (docker run, compose.yaml,
# compose.scale.yaml). Skips, saying why, where Docker does not answer; fails then with
# CI=true. `.ci/docker-standins` sets Docker up on a machine without Docker Hub.
test-image: install
	$(BIN)/pytest tests/image

# Re-takes the README's pictures (docs/screenshots) from the browser tests.
screenshots: install
	ALLFOURS_SCREENSHOTS=1 $(BIN)/pytest tests/e2e/test_table.py \
		tests/e2e/test_languages.py::test_four_players_in_four_languages_play_a_whole_hand \
		tests/e2e/test_first_hour.py tests/e2e/test_latecomer.py

bench: install
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
