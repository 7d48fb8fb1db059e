# The two set-up commands: `make demo` (the main job) and `make test`. Both create .venv/ first.
PY ?= python3
VENV := .venv
SWR := $(VENV)/bin/swr

.PHONY: demo test venv bench sysdeps

$(VENV)/.installed: pyproject.toml
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[test]'
	$(SWR) catalog install --all
	touch $@

venv: $(VENV)/.installed

demo: venv
	$(SWR) demo --out release

# The container backend's tests need podman and runc (Debian packages; installed when running as root).
sysdeps:
	@command -v podman >/dev/null && command -v runc >/dev/null || { [ "$$(id -u)" = 0 ] && \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends podman runc; } \
	  || echo "podman/runc missing: install them (apt-get install podman runc) for tests/test_sandbox_podman.py"

test: venv sysdeps
	$(VENV)/bin/python -m pytest -q

bench: venv
	$(VENV)/bin/python bench/sandbox_bench.py
	$(VENV)/bin/python bench/judge_bench.py
	$(VENV)/bin/python bench/warm_bench.py
