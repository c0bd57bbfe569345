# Two commands from a fresh clone: `make demo` and `make test`. Each creates .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# Tests run on every core (at most 4 processes); a test module stays on one process (loadfile),
# so module-scoped fixtures are built once. Tests marked `serial` look at the whole machine's
# processes and files, so they run alone afterwards. `make test XDIST=` runs everything serially.
XDIST ?= --numprocesses auto --maxprocesses 4 --dist loadfile

# The modules holding the serial tests: the serial parts of `make test` and `make test-fast`
# collect only these (tests/lanes.py: a serial test elsewhere stops every session), not every
# test module to find a handful.
SERIAL_MODULES = $(shell grep -rlF --include='test_*.py' 'mark.serial' tests)

# Every test run keeps compiled modules and pytest's rewritten tests in __pycache__ (ignored by
# git), even where the environment says not to write bytecode (PYTHONDONTWRITEBYTECODE): else
# every process a run starts (each worker, jail, kernel and `simlab` command) compiles the kit
# from its sources again, in a fresh clone all run long. A jail reads what the host compiled
# and writes nothing (its sources are read-only); the grader version leaves caches out.
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest

.PHONY: demo test test-fast lab app lint exercises bench clean sandbox-tool docs

# `make app`: the tuning dashboard alone, served by Voila (no code cells), for a projector.
APP_PORT ?= 8866

# The first use installs quietly (-qq: errors only), so that the first thing a newcomer reads is
# the kit's own output, not pip's notes about the machine's package index.
$(STAMP): pyproject.toml
	@echo "first use: installing simlab and its dependencies into $(VENV) (a few minutes)"
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install -qq --upgrade pip
	@$(BIN)/python -m pip install -qq -e '.[dev]'
	@# nbgrader is only a test dependency (a test fills a course with its own commands): its menus
	@# and server extensions are kept out of this environment's JupyterLab (notebook 05, make lab)
	@$(BIN)/jupyter server extension disable --sys-prefix $(NBGRADER_SERVER) >/dev/null 2>&1
	@$(BIN)/jupyter labextension disable --level=sys_prefix @jupyter/nbgrader >/dev/null 2>&1
	@touch $(STAMP)

NBGRADER_SERVER := $(addprefix nbgrader.server_extensions.,formgrader validate_assignment \
	assignment_list course_list)

demo: $(STAMP)
	$(BIN)/simlab demo
	@mkdir -p out
	@echo
	@echo "== A seeded simulation with every fault on, over the real ledger =="
	$(BIN)/simlab simulate --seed 7 --timeline out/demo-timeline.png
	@echo
	@echo "== The same seed without the fence: the checker must catch it (exit status 1) =="
	$(BIN)/simlab simulate --seed 7 --variant unfenced --timeline out/demo-unfenced.png; \
	  test $$? -eq 1

# The grader jails student code with bubblewrap (Debian package `bubblewrap`): as root, install
# it when missing; otherwise stop with one line naming what to install. Then check it can jail.
sandbox-tool: $(STAMP)
	@command -v bwrap >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing bubblewrap (the grader's sandbox)"; \
	    apt-get install -y -qq bubblewrap >/dev/null 2>&1 || \
	    { apt-get update -qq >/dev/null && apt-get install -y -qq bubblewrap >/dev/null; }; \
	  else \
	    echo "make test needs bubblewrap: install the package 'bubblewrap' (apt-get install bubblewrap)"; \
	    exit 1; \
	  fi; }
	@$(BIN)/python -c "from simlab.grading.sandbox.jail import require; require()" 2>/dev/null || \
	  { $(BIN)/python -c "from simlab.grading.sandbox.jail import require; require()" 2>&1 | tail -1; exit 1; }

test: $(STAMP) sandbox-tool
	$(BIN)/ruff check simlab tests
	$(BIN)/ruff format --check simlab tests
	$(BIN)/simlab build-exercises --check
	$(BIN)/simlab translate --check
	$(PYTEST) $(XDIST) -m "not serial"
	$(PYTEST) -m serial $(SERIAL_MODULES)
	@echo "browser test screenshots (notebook 05 in JupyterLab, make app in Voila): out/browser/"
	$(PYTEST) $(XDIST) --nbval-lax --nbval-current-env -p no:cacheprovider notebooks/

# `make test-fast`: every test that needs no jail, kernel, server or browser (tests/lanes.py: a
# test that starts one without its marker fails), for the loop of editing; no lint, no notebooks.
# `make test` stays the whole suite and what CI runs.
# Compiled modules and pytest's rewritten tests are kept in __pycache__ as in `make test` (PYTEST
# above). No notebook runs here, so nbval stays unloaded, and with it what it imports (the
# repository's conftest.py sets up nbval's kernels only in a session that loads it). A test module
# goes whole to one process (loadfile), as in `make test`: its module fixtures (the simulator's runs
# over 50 seeds) and the searches its tests share (tests/sim/test_explore.py) are computed once,
# where handing tests out one by one (worksteal) computed them again in every process a module
# was split across, more CPU than the balance it bought. Modules go out largest first (pytest-xdist
# orders them by their number of tests), so the longest ones start at once.
# Its temporary files (pytest's tmp_path and every tempfile, in the tests and the processes they
# start) live in a folder of its own in memory (under FAST_TMP, /dev/shm where there is one),
# open to all as /tmp is (a test may act as another user), removed when it ends: the lane opens
# and closes thousands of SQLite files, and on a disk each close waits for the disk, which on a
# busy machine costs more than the tests' own work. No test of this lane starts a jail (whose
# /dev is its own); `make test` keeps the system's temporary folder.
FAST := not jail and not kernel and not server and not browser
FAST_XDIST ?= --numprocesses auto --maxprocesses 4 --dist loadfile
FAST_TMP ?= $(if $(wildcard /dev/shm),/dev/shm)
FAST_PYTEST := $(PYTEST) -q -p no:cacheprovider -p no:nbval --fast-sweeps
test-fast: $(STAMP)
	@dir="$(FAST_TMP)"; { [ -n "$$dir" ] && [ -w "$$dir" ]; } || dir="$${TMPDIR:-/tmp}"; \
	TMPDIR=$$(mktemp -d "$$dir/simlab-test-fast.XXXXXX") || exit 1; export TMPDIR; \
	trap 'rm -rf "$$TMPDIR"' EXIT INT TERM; chmod 1777 "$$TMPDIR"; set -x; \
	$(FAST_PYTEST) $(FAST_XDIST) -m "$(FAST) and not serial" && \
	$(FAST_PYTEST) -m "$(FAST) and serial" $(SERIAL_MODULES)

lab: $(STAMP)
	$(BIN)/jupyter lab --notebook-dir=.

app: $(STAMP)
	@$(BIN)/python -m simlab.extras app
	JUPYTER_PATH=$(CURDIR)/app $(BIN)/voila --template=simlab app/dashboard.ipynb \
		--Voila.ip=127.0.0.1 --port=$(APP_PORT)

bench: $(STAMP)
	$(BIN)/simlab bench ledger
	$(BIN)/simlab bench sim

# `make docs`: the course site in docs/_build/html/, offline (docs/conf.py says what it reads):
# every notebook executed in its own folder (results cached in docs/_build/.jupyter_cache, so a
# second build runs only what changed), the exercises as handed out, the API reference.
docs: $(STAMP)
	$(BIN)/python -m sphinx -q -c docs . docs/_build/html
	@echo "the course site: docs/_build/html/index.html"

exercises: $(STAMP)
	$(BIN)/simlab build-exercises

lint: $(STAMP)
	$(BIN)/ruff check simlab tests

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info docs/_build docs/api
