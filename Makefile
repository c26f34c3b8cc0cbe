# Two commands do all the set-up:  `make demo` runs the demo, `make test` runs the tests.
# Both create .venv on first use and install the suite into it (torch pinned by constraints.txt).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint format bench clean

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e ".[dev]"
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m experiments.demo

test: $(STAMP)
	$(PY) -m pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(STAMP)
	$(PY) -m pip install --quiet -c constraints.txt -e ".[dev,bench]"
	$(PY) -m benchmarks.run

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
