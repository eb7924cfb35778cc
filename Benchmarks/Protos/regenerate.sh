#!/bin/sh
# Regenerates ../Sources/GeneratedCodeBenchmark/ProtobufShapes.pb.swift from ProtobufShapes.proto
# (The GroupWire types are generated at build time by GroupWireGeneratorPlugin from Specs/.)
# Run rarely: the generated file is checked in so the benchmark builds without protoc.
#
# Tools (how the checked-in file was made, 2026-11-22):
#   apt-get install -y protobuf-compiler              # protoc (Debian 12: libprotoc 3.21.12)
#   git clone /opt/swift-packages/apple/swift-protobuf.git /tmp/swift-protobuf   # local mirror
#   (cd /tmp/swift-protobuf && git checkout 1.39.0 && swift build -c release --product protoc-gen-swift)
# The plugin version must match the SwiftProtobuf runtime the benchmark depends on (1.39.0).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
plugin=${PROTOC_GEN_SWIFT:-/tmp/swift-protobuf/.build/release/protoc-gen-swift}
out=$(cd "$here/../Sources/GeneratedCodeBenchmark" && pwd)
protoc --plugin=protoc-gen-swift="$plugin" --proto_path="$here" \
    --swift_opt=Visibility=Internal --swift_out="$out" "$here/ProtobufShapes.proto"
echo "wrote $out/ProtobufShapes.pb.swift"

