# GroupWire workflow. `make demo` runs the main job on built-in data; `make test` runs
# every test. Both install what they need first (scripts/setup.sh: apt-get, or Homebrew on macOS).

SWIFT ?= swift
FUZZ_SECONDS ?= 60
PREFIX ?= /usr/local

.PHONY: test-under-load setup build test demo demo-cluster docs install fuzz fuzz-build fuzz-corpus bench bench-instructions bench-check bench-baseline regenerate vectors format lint clean

setup:
	@scripts/setup.sh

build: setup
	$(SWIFT) build

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The whole suite RUNS times beside a CPU load (LOAD=spin: a busy loop per core; LOAD=build:
# a release build over and over); minutes, so not part of `test` or CI.
RUNS ?= 5
test-under-load: setup
	scripts/test-under-load.sh $(RUNS)

# A relay and four participant processes on loopback (groupwire demo): every process it
# starts is stopped when it ends, also on Ctrl-C.
demo: setup
	$(SWIFT) build --product groupwire
	$(SWIFT) run --skip-build groupwire demo

# The same demo through a cluster of three relay nodes and a nats-server (make setup
# installs it); one node is killed mid-session (Spec/RELAY.md, "Clustering").
demo-cluster: setup
	$(SWIFT) build --product groupwire
	$(SWIFT) run --skip-build groupwire demo --cluster

# DocC for the user-facing modules, one combined archive in .build/docs (so symbol links
# cross modules), warnings are errors. The DocC plugin is a dependency only when
# GROUPWIRE_DOCS is set (see Package.swift).
DOC_TARGETS ?= GroupWire GroupWireJSON GroupWireCompression GroupWireSession GroupWireNegotiation GroupWirePlayback GroupWireRelay GroupWireNetwork GroupWireNATS GroupWireNATSProtocol GroupWireSpec GroupWireDynamic GroupWireCodegen GroupWireCapture GroupWireInspection GroupWireTesting
docs: setup
	@mkdir -p .build/docs
	GROUPWIRE_DOCS=1 $(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation \
		$(foreach target,$(DOC_TARGETS),--target $(target)) \
		--enable-experimental-combined-documentation --warnings-as-errors --output-path .build/docs/GroupWire.doccarchive

# The groupwire tool, release build, as $(PREFIX)/bin/groupwire (DESTDIR for packaging).
install: setup
	$(SWIFT) build -c release --product groupwire
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/groupwire" "$(DESTDIR)$(PREFIX)/bin/groupwire"

# run.sh builds with the flags libFuzzer needs (see Fuzz/README.md), then fuzzes each
# target for FUZZ_SECONDS; a crash fails and is saved to Fuzz/regressions/.
fuzz-build: setup
	FUZZ_BUILD_ONLY=1 Fuzz/run.sh all

fuzz: setup
	Fuzz/run.sh all $(FUZZ_SECONDS)

fuzz-corpus:
	python3 Fuzz/make-corpus.py

bench: setup
	cd Benchmarks && $(SWIFT) run -c release GroupWireBenchmarks
	cd Benchmarks && $(SWIFT) run -c release FragmentationBenchmark
	cd Benchmarks && $(SWIFT) run -c release CompressionBenchmark
	cd Benchmarks && $(SWIFT) run -c release GeneratedCodeBenchmark
	cd Benchmarks && $(SWIFT) run -c release GeneratedCodeBenchmark --messenger
	cd Benchmarks && $(SWIFT) run -c release GeneratedCodeBenchmark --delivery
	cd Benchmarks && $(SWIFT) run -c release GeneratedCodeBenchmark --negotiation
	cd Benchmarks && $(SWIFT) run -c release WebSocketStackBenchmark
	cd Benchmarks && $(SWIFT) run -c release ValidateBenchmark --big 1024
	cd Benchmarks && $(SWIFT) run -c release PlaybackBenchmark
	@command -v nats-server >/dev/null 2>&1 || { echo "bench: installing nats-server (the relay's comparison)"; \
		if [ "$$(id -u)" -ne 0 ]; then sudo_cmd=sudo; fi; \
		DEBIAN_FRONTEND=noninteractive $$sudo_cmd apt-get install -y -qq nats-server >/dev/null; }
	cd Benchmarks && $(SWIFT) run -c release RelayBenchmark
	cd Benchmarks && $(SWIFT) run -c release RelayBenchmark --many-rooms

# Noise-free companion to CompressionBenchmark's times: callgrind instruction counts.
bench-instructions: setup
	Benchmarks/instructions.sh

# Instructions per operation of the codec's and the pipeline's hot paths (callgrind)
# against Benchmarks/Baselines/instructions.tsv: fails above 10%. `bench-baseline` records.
bench-check: setup
	@command -v valgrind >/dev/null 2>&1 || { if [ "$$(id -u)" -ne 0 ]; then sudo_cmd=sudo; fi; \
		DEBIAN_FRONTEND=noninteractive $$sudo_cmd apt-get install -y -qq valgrind >/dev/null; }
	Benchmarks/bench-check.sh

bench-baseline: setup
	Benchmarks/bench-check.sh --record

regenerate: setup
	python3 Spec/vectors/generate.py
	GROUPWIRE_RECORD_GOLDENS=1 $(SWIFT) test --filter 'GoldenFileTests|ControlSpecTests'

vectors: regenerate

# swift-format over the Swift we write by hand (scripts/swift-sources.sh: generated files
# are left as the generator wrote them); `lint` is what CI checks, `format` fixes layout.
format:
	scripts/swift-sources.sh | xargs $(SWIFT) format --in-place --parallel

lint:
	scripts/swift-sources.sh | xargs $(SWIFT) format lint --strict --parallel

clean:
	rm -rf .build Fuzz/.build Fuzz/.build-fuzz Benchmarks/.build
