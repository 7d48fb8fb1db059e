# The two set-up commands: `make demo` (the main job) and `make test`. Both create .venv/ first.
PY ?= python3
VENV := .venv
SWR := $(VENV)/bin/swr

.PHONY: demo test venv bench sysdeps agents

$(VENV)/.installed: pyproject.toml
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[test]'
	$(SWR) catalog install --all
	touch $@

venv: $(VENV)/.installed

demo: venv
	$(SWR) demo --out release

# The container tests need podman, runc and debootstrap (Debian packages; installed when running as root).
sysdeps:
	@command -v podman >/dev/null && command -v runc >/dev/null && command -v debootstrap >/dev/null || \
	  { [ "$$(id -u)" = 0 ] && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	  --no-install-recommends podman runc debootstrap; } \
	  || echo "podman/runc/debootstrap missing: apt-get install podman runc debootstrap (tests/test_sandbox_podman.py)"

agents:  # a real third-party agent CLI for tests/test_claude_code.py (npm registry)
	@command -v claude >/dev/null || npm install -g --no-fund --no-audit @anthropic-ai/claude-code >/dev/null \
	  || echo "claude missing: npm install -g @anthropic-ai/claude-code (tests/test_claude_code.py)"

test: venv sysdeps agents
	$(VENV)/bin/python -m pytest -q --durations=15

bench: venv
	$(VENV)/bin/python bench/sandbox_bench.py
	$(VENV)/bin/python bench/judge_bench.py
	$(VENV)/bin/python bench/warm_bench.py
