# hubform — see README.md. `make run` and `make test` work on a fresh machine.
GO       ?= go
PKGS     ?= ./...

.PHONY: run test bench soak n8n-test n8n generate lint deps npm fuzz build assets browser versitygw litestream postgres mailpit poppler

## run: the demo site on 127.0.0.1:8080, with its own hub; data in $(DATA)
DATA ?= .hubform/demo
run: deps
	$(GO) run ./cmd/hubform demo --addr 127.0.0.1:8080 --data $(DATA)

## test: everything CI checks; the npm packages and the browser tests are required
test: export HUBFORM_REQUIRE_ASSETS = 1
test: export HUBFORM_BROWSER_TESTS = 1
test: export HUBFORM_S3_TESTS = 1
test: export HUBFORM_POSTGRES_TESTS = 1
test: export HUBFORM_MAIL_TESTS = 1
test: deps npm browser versitygw litestream postgres mailpit poppler lint
	$(GO) test -count=1 -timeout 25m $(PKGS)
	$(GO) test -count=1 -timeout 25m -race -short $(PKGS)

## bench: benchmarks, each reporting ratios against a baseline in the same run;
## the first-input benchmark loads pages 40 times each in headless Chromium;
## the inbox and summary benchmarks fill SQLite and PostgreSQL with INBOX_SUBMISSIONS
## submissions once each, in bulk, under temporary directories (the backup benchmark
## too, with 1 GiB of files, at its default rate and then without a limit); the upload
## benchmark sends files of up to 1 GiB from Chromium (2.3 GiB of temporary files)
INBOX_SUBMISSIONS ?= 1000000
bench: deps npm browser postgres versitygw
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 20x ./hubclient/...
	$(GO) test -run '^$$' -bench . -skip 'Inbox|Summary|BrowserUploads' -benchmem ./handlers/... ./components
	HUBFORM_S3_TESTS=1 $(GO) test -run '^$$' -bench BrowserUploads -benchtime 1x -timeout 30m ./handlers
	$(GO) test -run '^$$' -bench . -skip 'FirstInput|Backup' -benchtime 3x ./cmd/hubform
	$(GO) test -run '^$$' -bench FirstInput -benchtime 40x ./cmd/hubform
	HUBFORM_POSTGRES_TESTS=1 HUBFORM_BENCH_SUBMISSIONS=$(INBOX_SUBMISSIONS) $(GO) test -run '^$$' -bench 'Inbox|Summary' -benchtime 1x -timeout 60m -v ./handlers/hub/sqlite ./handlers/hub/postgres
	HUBFORM_BENCH_SUBMISSIONS=$(INBOX_SUBMISSIONS) HUBFORM_BENCH_FILE_BYTES=1073741824 $(GO) test -run '^$$' -bench Backup -benchtime 1x -timeout 60m -v ./cmd/hubform
	HUBFORM_BENCH_BACKUP_MAX_RATE=0 HUBFORM_BENCH_SUBMISSIONS=$(INBOX_SUBMISSIONS) HUBFORM_BENCH_FILE_BYTES=1073741824 $(GO) test -run '^$$' -bench Backup -benchtime 1x -timeout 60m -v ./cmd/hubform

## soak: a hub for SOAK (10m) under mixed load from several clients, reported a
## minute at a time (rates, p50 and p99 by kind; RSS, goroutines, open files)
SOAK ?= 10m
soak: deps
	HUBFORM_SOAK=$(SOAK) $(GO) test -count=1 -run '^TestSoak$$' -timeout 0 -v ./cmd/hubform

## n8n-test: the n8n recipe of handlers/hub/AUTOMATIONS.md in n8n itself, installed
## from npm into N8N_DIR (about 1.5 GB, minutes; not part of `make test`)
n8n-test: n8n
	HUBFORM_N8N=$(N8N_DIR)/node_modules/.bin/n8n $(GO) test -count=1 -run 'N8n' -v ./handlers/hub/delivery

## n8n: pinned; the xlsx it takes from a host of its own comes from npm's copy,
## and isolated-vm at the last version that builds on Node 20
N8N_VERSION = 1.123.81
N8N_DIR ?= $(HOME)/.cache/hubform/n8n-$(N8N_VERSION)
n8n:
	@test -x $(N8N_DIR)/node_modules/.bin/n8n || { mkdir -p $(N8N_DIR) && \
		printf '{"private": true, "dependencies": {"n8n": "%s"}, "overrides": {"xlsx": "0.18.5", "isolated-vm": "5.0.4"}}\n' $(N8N_VERSION) > $(N8N_DIR)/package.json && \
		npm install --prefix $(N8N_DIR) --no-audit --no-fund --loglevel=error; }

## generate: templ code (committed; `make lint` fails when it is stale)
generate: deps
	$(GO) tool templ generate

## lint: formatting, vet, staticcheck, module tidiness and fresh generated code
lint: deps
	@test -z "$$(gofmt -l $$(git ls-files '*.go' | grep -v '_templ.go$$'))" || { gofmt -l .; echo 'gofmt: the files above need formatting'; exit 1; }
	$(GO) vet $(PKGS)
	$(GO) tool staticcheck $(PKGS)
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

deps:
	$(GO) mod download

# npm ci installs exactly what the lock pins, devDependencies included, after
# checking each tarball against the lock's integrity. The stamp is newer than
# the lock until the lock or the manifest changes.
NPM_STAMP = static/node_modules/.hubform-npm-ci
NPM_CI = command -v npm >/dev/null 2>&1 || { echo 'npm not found: install Node.js and npm (Debian: apt-get install -y --no-install-recommends nodejs npm)'; exit 1; }; cd static && npm ci --no-audit --no-fund

## npm: the front-end packages static/package-lock.json pins, into static/node_modules:
## htmx, whose file the tests compare with the committed copy, axe-core, which
## the browser tests inject, and html-validate and Lighthouse, which check the
## console's pages
NPM_TOOLS = static/node_modules/html-validate/package.json static/node_modules/lighthouse/package.json
npm: static/node_modules/axe-core/axe.min.js $(NPM_TOOLS)

## assets: copies htmx.min.js from the npm package into static/dist, where it is
## committed so that the module carries it; run it after changing htmx's version
assets: $(NPM_STAMP)
	cp static/node_modules/htmx.org/dist/htmx.min.js static/dist/htmx.min.js.tmp
	mv static/dist/htmx.min.js.tmp static/dist/htmx.min.js

$(NPM_STAMP): static/package-lock.json static/package.json
	@$(NPM_CI)
	touch $@

# npm gives the files it unpacks a fixed old time, hence the touch.
static/node_modules/axe-core/axe.min.js $(NPM_TOOLS): $(NPM_STAMP)
	@test -f $@ || ($(NPM_CI))
	touch $@

## versitygw: the S3 gateway the object storage tests run against, into GOPATH/bin
VERSITYGW_VERSION = v1.8.0
GOBIN_DIR = $(firstword $(subst :, ,$(shell $(GO) env GOPATH)))/bin
versitygw:
	@test -x $(GOBIN_DIR)/versitygw || GOBIN=$(GOBIN_DIR) $(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION)

## litestream: the replicator of OPERATIONS.md's continuous backups, whose recipe a
## test runs, into GOPATH/bin
LITESTREAM_VERSION = v0.3.13
litestream:
	@test -x $(GOBIN_DIR)/litestream || GOBIN=$(GOBIN_DIR) $(GO) install github.com/benbjohnson/litestream/cmd/litestream@$(LITESTREAM_VERSION)

## browser: Debian's Chromium for the browser tests in static/, cmd/hubform and
## handlers/hub/console.
## Its recommended packages (115 with theirs) are left out. Of those, tests
## need only a font: chromium-common recommends fonts-liberation, and
## fontconfig depends on any one font. DejaVu, the screenshots' font, is
## named so that their text renders the same whatever fontconfig picked.
browser:
	command -v chromium >/dev/null || (apt-get update && apt-get install -y --no-install-recommends chromium fonts-dejavu-core)

## poppler: pdftotext and pdfinfo (Debian's poppler-utils), which read the text of the
## submissions' PDFs back in their tests.
poppler:
	command -v pdftotext >/dev/null || (apt-get update && apt-get install -y --no-install-recommends poppler-utils)

## postgres: Debian's PostgreSQL for the storage tests, which start a server of their
## own on a spare port (handlers/hub/postgres/pgtest). The package's own service is
## kept from starting, by a policy-rc.d made for the install if there is none.
POLICY_RC = /usr/sbin/policy-rc.d
postgres:
	@test -d /usr/lib/postgresql || { \
	  if ! test -e $(POLICY_RC); then printf '#!/bin/sh\nexit 101\n' > $(POLICY_RC) && chmod 755 $(POLICY_RC) && trap 'rm -f $(POLICY_RC)' EXIT; fi; \
	  apt-get update && apt-get install -y --no-install-recommends postgresql; }

## mailpit: the SMTP server the e-mail tests run against, into GOPATH/bin. `go install
## pkg@version` fails for it here (the proxy refuses the module's version list, which go
## install reads for deprecations), so the exact version is downloaded and built.
MAILPIT_VERSION = v1.27.11
mailpit:
	@test -x $(GOBIN_DIR)/mailpit || { \
	  dir=$$($(GO) mod download -json github.com/axllent/mailpit@$(MAILPIT_VERSION) | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$$/\1/p') && \
	  test -n "$$dir" && cd "$$dir" && GOFLAGS='-mod=mod -buildvcs=false' $(GO) build -o $(GOBIN_DIR)/mailpit . ; }
