# Two entry points do all the set-up on a fresh machine:
#   make run    installs what is needed, compiles the native searches (`workbench compile`), then runs
#               the main job (recomputes a table per puzzle into a fresh runs/<time>/ and compares it
#               with the published values; exit 0 also when a run did not finish in time)
#   make test   installs what is needed, then runs ruff, mypy, `workbench compile` and the test suite
#               (the long checks marked `heavy` run in `make bench`)
VENV   := .venv
PY     := $(VENV)/bin/python
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup run test bench plot clean
setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	@command -v minizinc >/dev/null && command -v glpsol >/dev/null && command -v lp_solve >/dev/null || \
		{ $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq minizinc glpk-utils lp-solve; }
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[test]"
	touch $@

run: setup
	$(PY) -m workbench solvers
	@echo "compiling the native searches into numba's cache first (minutes once, then seconds), so no showcase run pays it"
	$(PY) -m workbench compile
	$(PY) -m workbench showcase

test: setup
	$(VENV)/bin/ruff check workbench tests docs scripts
	$(VENV)/bin/mypy workbench
	$(PY) -m workbench compile
	$(PY) -m pytest -q -n 2 --dist loadfile --durations=10 -m "not heavy"

bench: setup
	$(PY) -m pytest -q -n 2 --dist loadfile -m heavy
	$(PY) -m workbench bench

plot: setup
	$(PY) -m workbench plot --out docs

clean:
	rm -rf $(VENV) .pytest_cache
