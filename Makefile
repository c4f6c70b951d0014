# Signalman: the make targets are the interface (CI runs `make test` and nothing else).
SHELL    := /bin/bash
MVN      ?= mvn -B -q -Dstyle.color=never
JAR      := target/signalman.jar
SOURCES  := $(shell find src/main -type f) pom.xml
HOST     ?= 127.0.0.1
PORT     ?= 8080

.PHONY: build image run test test-clock openapi-lint crash-test postgres check replay fixtures seed-bundle format-check bench bench-cluster bench-reload bench-state bench-replay clean browser workbench-screenshots

build: $(JAR)

$(JAR): $(SOURCES)
	$(MVN) package -DskipTests

## The container image, an OCI image tarball (docs/operations.md, "Container image"): Jib from scratch,
## offline, over what tools/image/stage-root.sh stages in target/image-root (a jlink'ed runtime, the
## libraries it links, /etc, the rules). Load it with docker load -i, podman load -i or skopeo.
IMAGE := target/signalman-image.tar
image: $(IMAGE)

$(IMAGE): $(SOURCES) $(shell find rules replay-fixtures -type f) tools/image/stage-root.sh tools/image/modules
	tools/image/stage-root.sh target/image-root
	$(MVN) package -Dmaven.test.skip=true -Pimage

## Serve rules/ on http://$(HOST):$(PORT) (builds first if needed), the workbench at /workbench/.
## Without SIGNALMAN_ADMIN_TOKEN, a random admin token is made once in data/admin-token (mode 600)
## and shown here: the workbench asks for it to save drafts and activate them.
run: build
	@mkdir -p data; [ -n "$$SIGNALMAN_ADMIN_TOKEN" ] || [ -s data/admin-token ] || \
	  (umask 077; head -c 18 /dev/urandom | base64 | tr -d '/+=' > data/admin-token)
	@echo "workbench: http://$(HOST):$(PORT)/workbench/ (admin token: $${SIGNALMAN_ADMIN_TOKEN:-$$(cat data/admin-token)})"
	@SIGNALMAN_ADMIN_TOKEN="$${SIGNALMAN_ADMIN_TOKEN:-$$(cat data/admin-token)}" \
	  bin/signalman serve --host $(HOST) --port $(PORT) --rules rules --fixtures replay-fixtures --data data

## Everything CI runs: layout checks, the container image (make image; ImageTest runs it under chroot), then the whole test suite (unit, properties, fixtures, HTTP,
## the workbench in a headless Chromium, and the short crash harness, CrashIT, on the jar built before the tests).
## A passing run leaves its wall seconds, from the first check to the last test, in target/make-test-seconds
## for the bench table; a failing run removes the file (a run cut short is no figure for the suite's time)
## and still fails with the suite's own exit status.
test: test-clock format-check openapi-lint postgres browser image
	@echo "mvn -B -Dstyle.color=never verify"; rc=0; mvn -B -Dstyle.color=never verify || rc=$$?; \
	if [ $$rc -eq 0 ]; then \
	  awk -v s="$$(cat target/.make-test-start)" -v e="$$(date +%s.%N)" 'BEGIN { printf "%.1f\n", e - s }' > target/make-test-seconds; \
	else rm -f target/make-test-seconds; fi; \
	exit $$rc

# When make test started (its first prerequisite, so the checks before the suite count too).
test-clock:
	@mkdir -p target; date +%s.%N > target/.make-test-start

## The HTTP contract, src/main/resources/openapi.yaml, against Redocly's recommended rules (its
## CLI from the npm registry, pinned in tools/openapi-lint/package-lock.json).
OPENAPI_LINT := tools/openapi-lint
openapi-lint:
	@npm ci --prefix $(OPENAPI_LINT) --no-audit --no-fund --loglevel=error >/dev/null
	@$(OPENAPI_LINT)/node_modules/.bin/redocly lint --config $(OPENAPI_LINT)/redocly.yaml --format=stylish \
	  src/main/resources/openapi.yaml 2>&1 | grep -vE '[║╔╚]' | grep -v '^\s*$$'; exit $${PIPESTATUS[0]}

## The crash harness, long (issue 26.8; about a minute per three rounds on two cores): bin/signalman serve
## under a mixed load on every endpoint, killed with kill -9 at a random moment, ROUNDS times, the fsync mode
## changing every round; after each restart every acknowledged decision, transition, turn and answer must be
## there. Prints each round and the total lost (exit 1 on any loss); CRASH_SEED=n replays a run. 127.0.0.1 only.
ROUNDS ?= 30
CRASH_SEED ?=
crash-test: build
	$(MVN) test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
	java -cp target/test-classes:target/classes:$$(cat target/test-classpath.txt) io.signalman.crash.CrashHarness $(ROUNDS) $(CRASH_SEED)

## The workbench's browser test drives Debian's chromium through chromium-driver: installed here
## when missing (as root, or through sudo); nothing is done when both are there.
browser:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
	  echo "installing chromium and chromium-driver (apt) for the workbench's browser test"; \
	  sudo=$$([ "$$(id -u)" = 0 ] || echo sudo -n); \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq chromium chromium-driver >/dev/null; \
	fi

## The README's workbench screenshots, taken by the browser test into docs/workbench/.
workbench-screenshots: browser
	$(MVN) test -Dtest=WorkbenchBrowserTest -Dsurefire.failIfNoSpecifiedTests=false -Dworkbench.screenshots=docs/workbench

## PostgreSQL's server binaries, which the cluster-state tests run a throwaway database with: Debian's
## package, installed only when missing (as root, or through sudo).
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  echo "installing Debian's postgresql package for the state tests"; \
	  sudo=$$([ "$$(id -u)" = 0 ] || echo sudo -n); \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq postgresql >/dev/null; }

## Compile and lint rules/ as the server would load it, then run every pack's scenarios.
check: build
	bin/signalman check rules
	bin/signalman test rules

## Replay the golden history against rules/ (RULES=dir to try other rules). With BASELINE=<git-rev>,
## compare with the rules of that revision instead of the recorded decisions (checked out in a
## temporary git worktree, removed afterwards), e.g. make replay BASELINE=main.
RULES ?= rules
REPORT ?=
replay: build
ifdef BASELINE
	@wt=$$(mktemp -d); \
	git worktree add --detach -q "$$wt" "$(BASELINE)" || exit 2; \
	bin/signalman replay --rules $(RULES) --baseline "$$wt/rules" $(if $(REPORT),--report $(REPORT)) replay-fixtures; rc=$$?; \
	git worktree remove --force "$$wt"; exit $$rc
else
	bin/signalman replay --rules $(RULES) $(if $(REPORT),--report $(REPORT)) replay-fixtures
endif

## Re-record golden histories through a real server (then review the diff): all packs, or
## PACKS=signals (a comma-separated list) for some.
PACKS ?= all
fixtures:
	$(MVN) test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
	java -cp target/test-classes:target/classes:$$(cat target/test-classpath.txt) io.signalman.replay.FixtureRecorder replay-fixtures $(PACKS)

## Platform developers only, never for a rule change: when a change to the platform itself (SPEC)
## changes what the seeds decide, refresh the frozen seed bundle that the Java tests compare with
## the seeds' reference routers (src/test/resources/seed-bundle) from rules/ and replay-fixtures/.
SEED := src/test/resources/seed-bundle
seed-bundle:
	rm -rf $(SEED)/rules $(SEED)/replay-fixtures
	cp -r rules replay-fixtures $(SEED)/

## .editorconfig, checked: LF endings, final newline, no tabs in Java, no trailing whitespace.
format-check:
	@git ls-files -z -- '*.java' '*.drl' '*.json' '*.jsonl' '*.md' '*.xml' '*.yaml' 'Makefile' 'LICENSE' | xargs -0 perl tools/format-check.pl

clean:
	$(MVN) clean

## Performance (SPEC 10): JMH over every pack's decide with the hand-written if-chain as the floor,
## a 10-million-decision heap soak, an HTTP load on 127.0.0.1 with the decision log on (and the
## broker route beside a live trial: none, shadow at 100%, canary at 50%; and with tracing off and on), and a
## 1,000-rule reload, a replay of a generated 5-million-record archive (plain and gzip, against a
## python3 parse of the same lines), and durable state. Results: target/bench/*.json and a table at the end.
BENCH_CP = target/test-classes:target/classes:$$(cat target/test-classpath.txt)
# The test classpath carries the tests' logging (a DEBUG line per decision); benchmarks log as production does.
BENCH_JAVA = java -Dorg.slf4j.simpleLogger.log.io.signalman.decisions=info -Dorg.slf4j.simpleLogger.log.io.signalman.requests=info
bench:
	$(MVN) test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
	mkdir -p target/bench
	$(BENCH_JAVA) -cp $(BENCH_CP) org.openjdk.jmh.Main -rf json -rff target/bench/jmh.json io.signalman.bench
	$(BENCH_JAVA) -Xmx512m -cp $(BENCH_CP) io.signalman.bench.HeapSoak 10000000
	$(BENCH_JAVA) -Xms512m -cp $(BENCH_CP) io.signalman.bench.HttpLoad
	$(BENCH_JAVA) -Xms512m -cp $(BENCH_CP) io.signalman.bench.TrialBench
	$(BENCH_JAVA) -Xms512m -cp $(BENCH_CP) io.signalman.bench.TracingBench
	$(BENCH_JAVA) -Xms1g -cp $(BENCH_CP) io.signalman.bench.ReloadBench
	$(BENCH_JAVA) -cp $(BENCH_CP) io.signalman.bench.ReplayBench
	$(BENCH_JAVA) -Xms1g -Xmx4g -cp $(BENCH_CP) io.signalman.bench.StateBench
	$(BENCH_JAVA) -cp $(BENCH_CP) io.signalman.bench.BenchTable

## The replay benchmark alone (RECORDS=5000000 by default; a few minutes): target/bench/replay.json.
RECORDS ?= 5000000
bench-replay:
	$(MVN) test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
	mkdir -p target/bench
	$(BENCH_JAVA) -cp $(BENCH_CP) io.signalman.bench.ReplayBench $(RECORDS)
	$(BENCH_JAVA) -cp $(BENCH_CP) io.signalman.bench.BenchTable

## Durable state alone (about 5 minutes): FSM and handoff HTTP rates in memory, durable, durable with
## --fsync always; start-up with a million live conversations; the same million in H2's MVStore.
bench-state:
	$(MVN) test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
	mkdir -p target/bench
	$(BENCH_JAVA) -Xms1g -Xmx4g -cp $(BENCH_CP) io.signalman.bench.StateBench
	$(BENCH_JAVA) -cp $(BENCH_CP) io.signalman.bench.BenchTable

## Activation convergence in a three-node cluster (about three minutes): ClusterTest with 30 activations in a row,
## each through the next node; target/bench/cluster-activation.json holds cluster.activation_convergence_ms
## (p50, p99: from the activation's request until every member serves it). 127.0.0.1 only.
bench-cluster: build
	mkdir -p target/bench
	$(MVN) test -Dtest=ClusterTest -Dsurefire.failIfNoSpecifiedTests=false -Dsignalman.cluster.activations=30
	@cat target/bench/cluster-activation.json

## The reload benchmark alone (a few minutes): target/bench/reload.json and its lines of the table.
bench-reload:
	$(MVN) test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
	mkdir -p target/bench
	$(BENCH_JAVA) -Xms1g -cp $(BENCH_CP) io.signalman.bench.ReloadBench
	$(BENCH_JAVA) -cp $(BENCH_CP) io.signalman.bench.BenchTable
