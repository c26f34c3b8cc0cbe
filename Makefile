# Two commands do all the set-up:  `make demo` runs the demo, `make test` runs the tests.
# Both create .venv on first use and install the suite into it (torch pinned by constraints.txt).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# tests/test_report_browser.py drives Debian's headless Chromium (root, or sudo, installs it).
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT := DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get

.PHONY: demo test test-fast lint format docs bench clean chromium

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e ".[dev]"
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m experiments.demo --overwrite  # the demo's own folder, runs/demo, anew each time

test: $(STAMP) chromium
	$(PY) -m pytest -n 2 --dist worksteal  # two workers (pytest-xdist), the idle one taking the other's queued tests

# The quick run: every package, without the tests marked slow (pyproject.toml's markers).
test-fast: $(STAMP) chromium
	$(PY) -m pytest -n 2 --dist worksteal -m "not slow"

chromium:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
		$(APT) install -y -q chromium chromium-driver || \
		($(APT) update -q && $(APT) install -y -q chromium chromium-driver)

# Style, formatting, and the layer contract of docs/architecture.md (import-linter).
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# The documentation site (MkDocs, mkdocs.yml) into site/: a broken link or reference fails it.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict  # the variable: no end-of-life banner

bench: $(STAMP)
	$(PY) -m pip install --quiet -c constraints.txt -e ".[dev,bench]"
	$(PY) -m benchmarks.run

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis site
