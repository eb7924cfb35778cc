# The GroupWire workflow. `make help` lists the targets.

SWIFT ?= swift
FUZZ_SECONDS ?= 60
DEMO_FILE ?= .build/demo.gwf

.PHONY: help build test demo fuzz fuzz-corpus

help:
	@echo "make build                 build the package"
	@echo "make test                  run every test"
	@echo "make demo                  write example frames to $(DEMO_FILE) and inspect them"
	@echo "make fuzz FUZZ_SECONDS=N   run each fuzz target for N seconds (default 60); fails on a crash"
	@echo "make fuzz-corpus           regenerate the fuzz seed corpus from the vectors and examples"

build:
	$(SWIFT) build

test:
	$(SWIFT) test

demo: build
	mkdir -p $(dir $(DEMO_FILE))
	$$($(SWIFT) build --show-bin-path)/groupwire demo --output $(DEMO_FILE)
	$$($(SWIFT) build --show-bin-path)/groupwire inspect $(DEMO_FILE)

fuzz:
	Fuzz/run.sh all $(FUZZ_SECONDS)

fuzz-corpus:
	python3 Fuzz/make-corpus.py
