# Three Thirteen by post. `make run` serves the app on the embedded default (SQLite, no Redis);
# `make test` runs the whole suite (PostgreSQL/Redis when DATABASE_URL/REDIS_URL are set).
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# A Python >= 3.12: PATH first, then pyenv's versions, newest last-resort.
FIND_PYTHON = for c in python3.13 python3.12 python3 python; do \
	  p=$$(command -v $$c 2>/dev/null) || continue; \
	  $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo $$p; exit 0; }; \
	done; \
	root=$$(pyenv root 2>/dev/null || echo $$HOME/.pyenv); \
	for p in $$(ls -d $$root/versions/3.1[2-9]*/bin/python3 2>/dev/null | sort -V -r); do \
	  $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null && { echo $$p; exit 0; }; \
	done; exit 1

.PHONY: run test check lock faulttest nodetest lint format bench loadtest venv migrate clean translations messages

# Without pip (its own install took most of a fresh `make run`'s first 15 s): uv installs
# everything, itself put in by the chosen Python's pip, or by the venv's own where it has none.
$(PY):
	@py=$$($(FIND_PYTHON)) || { echo "No Python >= 3.12 found. Install one: 'apt-get install python3.13' (Debian 13) or 'pyenv install 3.12'." >&2; exit 1; }; \
	echo "Using $$py"; $$py -m venv --without-pip $(VENV)

# Dependencies come from the lock files in requirements/ (every package pinned, with its hashes),
# made from pyproject.toml by `make lock`; the project itself is installed on top, without them.
# uv installs them (pip would too, ten times slower: `pip install --require-hashes -r ...`).
UV := $(VENV)/bin/uv
INSTALL := $(UV) pip install --quiet --python $(PY)
$(UV): $(PY)
	@base=$$($(PY) -c 'import sys; print(sys._base_executable)'); \
	$$base -m pip --python $(PY) install -q 'uv==0.13.9' 2>/dev/null || \
	  { $(PY) -m ensurepip -q && $(PY) -m pip install -q 'uv==0.13.9'; }

$(STAMP): $(UV) requirements/dev.txt
	$(INSTALL) --require-hashes -r requirements/dev.txt
	$(INSTALL) --no-deps -e .
	touch $(STAMP)

venv: $(STAMP)

# After changing a dependency in pyproject.toml: pins every package anew for Python >= 3.12 on
# any platform, each extra's lock holding the same versions as dev's. `make lock UPGRADE=1` moves
# every pin to the newest release allowed.
LOCK := $(UV) pip compile pyproject.toml --universal --python-version 3.12 --generate-hashes \
	--custom-compile-command "make lock" --quiet $(if $(UPGRADE),--upgrade)
lock: $(UV)
	$(LOCK) -o requirements/production.txt
	$(LOCK) --extra dev -o requirements/dev.txt
	$(LOCK) --extra dev --extra bench -c requirements/dev.txt -o requirements/bench.txt
	$(LOCK) --extra dev --extra load -c requirements/dev.txt -o requirements/load.txt

# Catalogues compiled in Python (no GNU gettext needed to set up); `make messages` (which does need
# it) refreshes every catalogue from the code and templates, keeping what is translated.
translations: $(STAMP)
	@$(PY) -m config.translations

messages: $(STAMP)
	$(PY) manage.py makemessages $(foreach l,id cs is hu nl,-l $(l)) --no-location --no-obsolete \
	  --ignore '.venv/*' --ignore 'var/*' --ignore 'tests/*' --ignore 'build/*'

migrate: $(STAMP)
	$(PY) manage.py migrate --noinput

# DEBUG off (the site's own error pages, static files collected into var/ and served by
# whitenoise); `DEBUG=1 make run` for development; `make run ADDRPORT=127.0.0.1:8001` serves at
# another address. serve --prepare migrates, collects the static files and makes the bot accounts
# in its own process first (a command each would load Django three more times).
run: $(STAMP) translations
	$(PY) manage.py serve --prepare $(ADDRPORT)

# In parallel, a process per core (pytest-xdist; each its own test database and Redis database),
# the slowest tests listed at the end. PYTEST_ARGS adds to it, e.g. PYTEST_ARGS='-k chat'.
PYTEST_PARALLEL := -n auto --dist worksteal --durations=15 --durations-min=1
test: $(STAMP) translations
	$(PY) -m pytest $(PYTEST_PARALLEL) $(PYTEST_ARGS)

# The quick loop: everything but the slow, browser and worker tests (about a minute).
# CHECK_MARKS narrows it further (.ci/run leaves out the engine's tests on SQLite).
CHECK_MARKS := not slow and not e2e and not worker and not faults and not nodes
check: $(STAMP) translations
	$(PY) -m pytest $(PYTEST_PARALLEL) -m "$(CHECK_MARKS)" $(PYTEST_ARGS)

# The whole site through faults (tests/faults, marker `faults`, a few minutes): private
# PostgreSQL and Redis servers, gunicorn, a worker and beat, restarted and killed during play;
# prints the seconds each part took to recover. FAULT_RUNS=3 repeats every scenario.
faulttest: $(STAMP) translations
	$(PY) -m pytest -m faults tests/faults -p no:cacheprovider --timeout 1800

# Two nodes behind nginx (tests/nodes, marker `nodes`, three to four minutes): each node its own
# gunicorn, uvicorn and Celery worker, on private PostgreSQL and Redis servers, nginx in front
# with deploy/nginx/; a game played across them, a node killed during play. Needs Debian's nginx,
# which root gets here.
NGINX := $(shell command -v nginx || ls /usr/sbin/nginx 2>/dev/null)
nodetest: $(STAMP) translations
	@test -n "$(NGINX)" || [ "$$(id -u)" != 0 ] || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx; }
	@test -n "$(NGINX)" || test -x /usr/sbin/nginx || { echo "make nodetest needs nginx: 'apt-get install nginx'." >&2; exit 1; }
	$(PY) -m pytest -m nodes tests/nodes -p no:cacheprovider --timeout 900

# The front end's linter and formatter, Biome, from the npm registry (package-lock.json pins it):
# it needs Node.js and npm, which `make lint` alone asks for (`make run` and `make test` do not).
BIOME := node_modules/.bin/biome
node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || { echo "make lint needs Node.js and npm: 'apt-get install nodejs npm'." >&2; exit 1; }
	npm ci --no-audit --no-fund --silent
	touch $@

# Ruff, the layers (the import contracts under [tool.importlinter] in pyproject.toml), the types
# of the engine, services and selectors (mypy --strict, [tool.mypy]), the templates (djlint,
# [tool.djlint]), then static/'s CSS and JavaScript (Biome, biome.json: its recommended rules,
# warnings failing too, but the cascade's order, which the stylesheet keeps by component).
lint: $(STAMP) node_modules/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-logo
	$(VENV)/bin/mypy
	$(VENV)/bin/djlint templates --lint
	$(BIOME) ci static --error-on-warnings --colors=off

format: $(STAMP) node_modules/.installed
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .
	$(BIOME) check --write static

$(VENV)/.bench-installed: $(STAMP) requirements/bench.txt
	$(INSTALL) --require-hashes -r requirements/bench.txt
	touch $@

# The engine, pages, logins and leagues-and-tournaments benchmarks (devtools/, development only):
# each prints figures. bench_competitions seeds a world of its own: a fresh database each run
# (a SQLite file here; docs/benchmarks.md has the PostgreSQL figures and how to run them there).
bench: $(VENV)/.bench-installed
	$(PY) -m devtools.bench
	tmp=$$(mktemp -d) && VAR_DIR=$$tmp BOT_MOVE_DELAY_SECONDS=3600 $(PY) manage.py bench_pages; rm -rf $$tmp
	tmp=$$(mktemp -d) && VAR_DIR=$$tmp DJANGO_SETTINGS_MODULE=config.settings.local $(PY) manage.py bench_logins; rm -rf $$tmp
	tmp=$$(mktemp -d) && unset DATABASE_URL REDIS_URL && export VAR_DIR=$$tmp \
	  DJANGO_SETTINGS_MODULE=config.settings.local && $(PY) manage.py migrate -v0 && \
	  $(PY) manage.py bench_competitions; rm -rf $$tmp

$(VENV)/.load-installed: $(STAMP) requirements/load.txt
	$(INSTALL) --require-hashes -r requirements/load.txt
	touch $@

# Many players over real HTTP: gunicorn, a Celery worker and beat on PostgreSQL and Redis, locust
# headless (loadtest/run.py says what it starts; `$(PY) -m loadtest.run --help` for the sizes).
# Its own database and Redis db, recreated and emptied: LOADTEST_DATABASE_URL (a name containing
# "load"; default threethirteen_loadtest on 127.0.0.1) and LOADTEST_REDIS_URL (default db 15).
loadtest: $(VENV)/.load-installed translations
	$(PY) -m loadtest.run $(LOADTEST_ARGS)

clean:
	rm -rf $(VENV) var node_modules
