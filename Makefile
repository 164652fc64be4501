# Two entry points do all the set-up on a fresh machine:
#   make run    installs what is needed, then runs the main job (reproduces the tables)
#   make test   installs what is needed, then runs the test suite
VENV   := .venv
PY     := $(VENV)/bin/python
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup run test bench clean
setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	@command -v minizinc >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq minizinc; }
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[test]"
	touch $@

run: setup
	$(PY) -m workbench solvers
	$(PY) -m workbench solve enigma144 --n 6
	$(PY) -m workbench table enigma144 --n 1..10
	$(PY) -m workbench table enigma82 --n 1..10
	$(PY) -m workbench table triangles --n 1..10
	$(PY) -m workbench table squares --n 1..16 --solver search
	$(PY) -m workbench table squares --n 1..12 --solver search --all
	$(PY) -m workbench table stones --n 1..3
	$(PY) -m workbench table stones --n 1..3 --solver cpsat --time-limit 600
	$(PY) -m workbench table percolation --n 1..8
	$(PY) -m workbench table percolation --n 1..10 --permutation
	$(PY) -m workbench count percolation --n 5 --solver minizinc:gecode --show 2
	$(PY) -m workbench table magic15 --solver search
	$(PY) -m workbench table magic15 --solver search --pandiagonal
	$(PY) -m workbench count magic15 --solver minizinc:gecode --symmetry

test: setup
	$(PY) -m pytest -q -n 2 --dist loadfile

bench: setup
	$(PY) -m workbench bench

clean:
	rm -rf $(VENV) .pytest_cache
