# The two commands of the README: `make audit` and `make test`. Both create .venv if needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: audit test lint clean readme

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

# Exit code 1 means "findings": the sample logs hold faults on purpose, so only 2 fails.
# The samples' runs go to reports/history.sqlite, never to the floor history (the default
# store, under ~/.local/share): trying the auditor leaves a real history as it was.
audit: $(STAMP)
	@$(BIN)/auditor audit sample_logs --out reports --store reports/history.sqlite --new-store; \
		status=$$?; test $$status -le 1

# The browser test needs Debian's chromium; without it that test fails under CI=true.
test: $(STAMP)
	bash scripts/install-browser.sh || echo "make: no browser installed; tests/outputs/test_report_browser.py will say why"
	bash scripts/install-postgres.sh || echo "make: no PostgreSQL server installed; tests/store/test_store.py will say why"
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check auditor tests

clean:
	rm -rf $(VENV) reports/*.json reports/*.csv reports/*.html reports/current reports/.runs \
		reports/history.sqlite* reports/auditor-crash.log

readme: $(STAMP)
	$(BIN)/python scripts/update_readme.py
