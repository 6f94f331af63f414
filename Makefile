# Two commands matter: `make demo` (sets everything up, runs the demo) and `make test`.
# Every target that needs the virtualenv depends on `install`, which is idempotent.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
GEN_ARGS = --path openapi.yaml --config openapi-python-client.yaml --meta none --overwrite --fail-on-warning

export PATH := $(abspath $(BIN)):$(PATH)

.PHONY: install gen check-gen lint typecheck docs test test-ui screenshot serve demo fuzz soak bench bench-quick eval matrix matrix-ci clean

install: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[all,dev]"
	@touch $(STAMP)

# Regenerate the typed client from openapi.yaml. Never edit generated/ by hand.
gen: $(STAMP)
	rm -rf generated/memorysync_client
	$(BIN)/openapi-python-client generate $(GEN_ARGS) --output-path generated/memorysync_client
	touch generated/memorysync_client/py.typed

# Regenerate into a temporary folder and fail when the checked-in client differs from the spec.
check-gen: $(STAMP)
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(BIN)/openapi-python-client generate $(GEN_ARGS) --output-path "$$tmp/memorysync_client" >/dev/null && \
	touch "$$tmp/memorysync_client/py.typed" && \
	if diff -r -x __pycache__ "$$tmp/memorysync_client" generated/memorysync_client; then \
		echo "check-gen: generated/ matches openapi.yaml"; \
	else \
		echo "check-gen: generated/ is stale: run 'make gen' and commit both openapi.yaml and generated/" >&2; exit 1; \
	fi

LINT_PATHS = $(wildcard src tests bench examples tools eval)

lint: $(STAMP)
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/ruff format --check $(LINT_PATHS)

# Strict types on src/ ([tool.mypy] in pyproject.toml; the generated client is checked as generated).
typecheck: $(STAMP)
	$(BIN)/mypy

# The documentation site (docs/, mkdocs.yml) into build/site; strict: a broken link or reference
# fails. tests/compat/test_docs.py builds it the same way inside `make test`.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

test: $(STAMP) check-gen lint typecheck
	$(BIN)/python -m pytest -q

# The inspector's browser tests alone (they are part of `make test` too). They use Debian's
# chromium and install it with apt-get when missing and run as root.
test-ui: $(STAMP)
	$(BIN)/python -m pytest -q tests/ui

# Retake docs/inspector.png (the screenshot of the README and docs/inspector.md) with the browser test's data.
screenshot: $(STAMP)
	INSPECTOR_SCREENSHOT=$(abspath docs/inspector.png) $(BIN)/python -m pytest -q tests/ui/test_browser.py -k ask_what_the_model

serve: $(STAMP)
	$(BIN)/memorysync-server serve --host 127.0.0.1 --port 8787 --db ./memorysync.db

demo: $(STAMP)
	$(BIN)/python examples/demo.py

# The deep schemathesis pass. Request schemas are open (unknown fields are accepted and reported,
# openapi.yaml x-unknown-fields), so "undeclared property" is no longer negative data; each case
# instead checks X-MemorySync-Ignored-Fields against the spec (tests/server/http/test_contract_fuzz.py).
fuzz: $(STAMP)
	$(BIN)/python -m pytest -q -m fuzz -p no:cacheprovider tests/server/http/fuzz_deep.py
	EXTRACTION_EXAMPLES=200000 $(BIN)/python -m pytest -q -p no:cacheprovider tests/server/extraction/test_extraction_properties.py

# Long soak and fault runs against the server as a separate process (loopback, bounded in time);
# `make test` runs the same tests for a few seconds.
soak: $(STAMP)
	SOAK_SECONDS=$${SOAK_SECONDS:-75} $(BIN)/python -m pytest -q -s -p no:cacheprovider tests/soak

# Every figure of docs/figures.md, each section timed (~10 min on 2 cores once bench/out/corpus/
# holds the corpus's vectors; the first run on a machine also embeds them).
bench: $(STAMP)
	$(BIN)/python bench/run.py

# The rows a change usually touches, in under two minutes: the AG2 hooks, and the server at 1,000
# memories with its recall floor. Writes bench/out/quick.md, not docs/figures.md.
bench-quick: $(STAMP)
	$(BIN)/python bench/run.py --quick

# Recall quality of every search mode side by side (eval/data), plus extraction quality.
eval: $(STAMP)
	$(BIN)/python eval/run.py

# One virtualenv per framework release x Python under .matrix/ (pip's cache is reused), the adapter
# and contract suites in each, and the support table in docs/versions.md from that run.
matrix: $(STAMP)
	nice $(BIN)/python tools/matrix.py

# The reduced grid CI runs: oldest and newest supported release of each framework. Not niced: on
# a shared runner a niced suite gets a tenth of a core beside anyone's busy process (seen: a first
# recall over its 1.2 s budget beside two CPU hogs), and its timing bounds are the product's.
matrix-ci: $(STAMP)
	$(BIN)/python tools/matrix.py --ci

clean:
	rm -rf $(VENV) .matrix .pytest_cache .ruff_cache build
