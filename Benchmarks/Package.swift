// swift-tools-version: 6.1
//
// Benchmarks live in their own package so that building and testing MarkerShutter never pulls in
// the peers they are compared against. Run them from this folder in release mode, e.g.
//   swift run -c release <benchmark-name>
// Every benchmark prints its figures; BENCHMARKS.md records them with the command and machine.

import PackageDescription

// MARK: - Rate limiting

let debounceBenchmarkDependencies: [Package.Dependency] = []
let debounceBenchmarkTargets: [Target] = []

// MARK: - Detection

let detectionBenchmarkDependencies: [Package.Dependency] = []
let detectionBenchmarkTargets: [Target] = []

// MARK: - Capture

let captureBenchmarkDependencies: [Package.Dependency] = []
let captureBenchmarkTargets: [Target] = [
    .executableTarget(
        name: "capture-benchmark",
        dependencies: [
            .product(name: "FrameCapture", package: "MarkerShutter"),
            .product(name: "EmulatedCameraHarness", package: "MarkerShutter"),
        ],
        path: "Sources/CaptureBenchmark"),
]

// MARK: - Package

let package = Package(
    name: "MarkerShutterBenchmarks",
    dependencies: [.package(name: "MarkerShutter", path: "..")]
        + debounceBenchmarkDependencies + detectionBenchmarkDependencies + captureBenchmarkDependencies,
    targets: debounceBenchmarkTargets + detectionBenchmarkTargets + captureBenchmarkTargets,
    swiftLanguageModes: [.v6]
)
