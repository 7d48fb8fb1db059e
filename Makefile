# The two set-up commands: `make demo` (the main job) and `make test`. Both create .venv/ first.
PY ?= python3
VENV := .venv
SWR := $(VENV)/bin/swr

.PHONY: demo demo-full test test-full lint venv bench sysdeps agents harbor-venv

# One venv, in layers: swr with its runtime and the engines' extras (.base); then the demo slice's families (.demo,
# catalog/demo.toml), every family (.catalog, the full demo), or the test extra and every family (.installed).
$(VENV)/.base: pyproject.toml
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[engines]'
	touch $@

$(VENV)/.demo: $(VENV)/.base catalog/demo.toml
	$(SWR) catalog install --demo
	touch $@

$(VENV)/.catalog: $(VENV)/.base
	$(SWR) catalog install --all
	touch $@

$(VENV)/.installed: $(VENV)/.base
	$(VENV)/bin/pip install --quiet -e '.[test,engines]'
	$(SWR) catalog install --all
	touch $@

venv: $(VENV)/.installed

# The demo builds the slice in catalog/demo.toml (every domain; 5-9 minutes from a fresh clone on 2 shared cores,
# bench/RESULTS.md); `make demo-full` builds and grades the whole catalog (the build alone: 26 minutes, 3,304 tasks).
demo: $(VENV)/.demo
	$(SWR) demo --out release

demo-full: $(VENV)/.catalog
	$(SWR) demo --full --out release

# The container tests need podman, runc and debootstrap; the engine tasks' verifiers CalculiX, ngspice and
# Yosys; tests/test_report.py headless Chromium (Debian packages; installed when running as root).
# REVIVAL_APT: every Debian package a revival's `apt` names (tests/test_revival_builds.py checks the list is complete)
REVIVAL_APT := gcc libc6-dev gfortran openjdk-17-jdk-headless ant junit4 libhamcrest-java libcommons-math-java
SYSDEPS := podman runc debootstrap calculix-ccx ngspice yosys chromium patch $(REVIVAL_APT)
sysdeps:
	@missing=$$(for c in podman runc debootstrap ccx ngspice yosys chromium patch; do command -v $$c >/dev/null || echo $$c; done; \
	  for p in $(REVIVAL_APT); do dpkg-query -W -f '$${db:Status-Status}' $$p 2>/dev/null | grep -qx installed || echo $$p; done); \
	  [ -z "$$missing" ] || { [ "$$(id -u)" = 0 ] && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	  --no-install-recommends $(SYSDEPS); } \
	  || echo "missing: apt-get install $(SYSDEPS) (tests/test_sandbox_podman.py, tests/test_engines.py, tests/test_report.py)"

agents:  # a real third-party agent CLI for tests/test_claude_code.py (npm registry)
	@command -v claude >/dev/null || npm install -g --no-fund --no-audit @anthropic-ai/claude-code >/dev/null \
	  || echo "claude missing: npm install -g @anthropic-ai/claude-code (tests/test_claude_code.py)"

# The real Harbor (0.26, Python 3.12 from pyenv) for tests/test_export_harbor.py, in the cache dir its fixture uses
# (it makes the same venv itself when this was not run; CI needs pyenv's 3.12 and PyPI access either way).
HARBOR_VENV ?= $(HOME)/.cache/swr/harbor-0.26.0-py3.12
HARBOR_PY ?= $(lastword $(sort $(wildcard $(HOME)/.pyenv/versions/3.12.*/bin/python3)))
harbor-venv: $(HARBOR_VENV)/.ready
$(HARBOR_VENV)/.ready:
	@[ -n "$(HARBOR_PY)" ] || { echo "harbor needs Python 3.12: pyenv install 3.12"; exit 1; }
	rm -rf $(HARBOR_VENV) && $(HARBOR_PY) -m venv $(HARBOR_VENV)
	$(HARBOR_VENV)/bin/pip install --quiet harbor==0.26.0
	echo harbor==0.26.0 > $@

# `make lint`: ruff (lint and format, [tool.ruff] in pyproject.toml) and mypy ([tool.mypy]: strict on judge/, sandbox/
# and kinds/). `make test` runs it first: a lint finding fails the build before the tests.
lint: venv
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/ruff format --check src tests bench
	$(VENV)/bin/mypy

# `make test` (CI; 35 minutes the target, bench/RESULTS.md): the catalog fixture holds 2 workflows of each family
# (SWR_TEST_PER_FAMILY) with 2 variants each, and the whole-catalog oracle run is a seeded sample (SWR_TEST_SEED,
# printed at the end). `make test-full` also runs the exhaustive checks (marker `full`) on every workflow of the
# catalog built with 6 variants, as `make demo` ships it.
# Two pytest-xdist workers, a test file each at a time (module fixtures stay built once); the shared releases build
# in the background from collection on (tests/prebuilt.py).
PYTEST := $(VENV)/bin/python -m pytest -q -n 2 --dist loadfile --durations=30
test: venv sysdeps agents harbor-venv lint
	$(PYTEST) -m "not full"

test-full: venv sysdeps agents harbor-venv lint
	SWR_TEST_VARIANTS=6 SWR_TEST_PER_FAMILY=0 $(PYTEST)

bench: venv
	$(VENV)/bin/python bench/sandbox_bench.py
	$(VENV)/bin/python bench/judge_bench.py
	$(VENV)/bin/python bench/warm_bench.py
