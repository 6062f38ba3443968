# hubform — see README.md. `make run` and `make test` work on a fresh machine.
GO       ?= go
PKGS     ?= ./...

.PHONY: run test bench generate lint deps fuzz build assets browser

## run: the demo site on 127.0.0.1:8080, with its own hub; data in $(DATA)
DATA ?= .hubform/demo
run: deps
	$(GO) run ./cmd/hubform demo --addr 127.0.0.1:8080 --data $(DATA)

## test: everything CI checks; the static assets and the browser tests are required
test: export HUBFORM_REQUIRE_ASSETS = 1
test: export HUBFORM_BROWSER_TESTS = 1
test: deps browser lint
	$(GO) test -count=1 $(PKGS)
	$(GO) test -count=1 -race -short $(PKGS)

## bench: benchmarks, each reporting ratios against a baseline in the same run
bench: deps
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 20x ./hubclient/...
	$(GO) test -run '^$$' -bench . -benchmem ./handlers/...
	$(GO) test -run '^$$' -bench . -benchtime 3x ./cmd/hubform

## generate: templ code (committed; `make lint` fails when it is stale)
generate: deps
	$(GO) tool templ generate

## lint: formatting, vet, module tidiness and fresh generated code
lint: deps
	@test -z "$$(gofmt -l $$(git ls-files '*.go' | grep -v '_templ.go$$'))" || { gofmt -l .; echo 'gofmt: the files above need formatting'; exit 1; }
	$(GO) vet $(PKGS)
	$(GO) mod verify
	@$(GO) tool templ generate >/dev/null 2>&1 || { $(GO) tool templ generate; exit 1; }
	@git diff --quiet -- '*_templ.go' || { git diff --stat -- '*_templ.go'; echo 'templ: generated code is stale; run make generate and commit it'; exit 1; }

## fuzz: each fuzz test for FUZZTIME (default 10s)
FUZZTIME ?= 10s
fuzz: deps
	@for pkg in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "$$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; done

## build: the hubform binary into bin/
build: deps
	$(GO) build -o bin/hubform ./cmd/hubform

deps: assets
	$(GO) mod download

## assets: htmx from the npm registry (static/package-lock.json) into static/dist
assets: static/dist/htmx.min.js

static/dist/htmx.min.js: static/package-lock.json static/package.json
	@command -v npm >/dev/null 2>&1 || { echo 'assets: npm not found: install Node.js and npm (Debian: apt-get install -y nodejs npm) to fetch htmx'; exit 1; }
	cd static && npm ci --no-audit --no-fund
	cp static/node_modules/htmx.org/dist/htmx.min.js $@.tmp
	mv $@.tmp $@

## browser: Debian's Chromium for the browser tests in static/
browser:
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)
