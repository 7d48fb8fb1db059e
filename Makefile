# The two set-up commands: `make demo` (the main job) and `make test`. Both create .venv/ first.
PY ?= python3
VENV := .venv
SWR := $(VENV)/bin/swr

.PHONY: demo test venv bench

$(VENV)/.installed: pyproject.toml
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[test]'
	$(SWR) catalog install --all
	touch $@

venv: $(VENV)/.installed

demo: venv
	$(SWR) demo --out release

test: venv
	$(VENV)/bin/python -m pytest -q

bench: venv
	$(VENV)/bin/python bench/sandbox_bench.py
	$(VENV)/bin/python bench/judge_bench.py
	$(VENV)/bin/python bench/warm_bench.py
