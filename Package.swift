// swift-tools-version: 6.1
//
// MarkerShutter: capture camera-calibration images only while a calibration target is seen.
//
// The targets follow the data flow, one folder each under Sources/:
//
//   V4L2 camera -> FrameCapture (over CV4L2Shim) -> MarkerDetection (over COpenCVShim)
//               -> Debounce (conditional debouncer) -> MarkerShutter (pipeline) -> marker-shutter
//
// Dependencies only point up that chain; `Debounce` knows nothing of cameras.

import PackageDescription

let strictSwift: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// MARK: - Rate limiting: conditional debounce, debounce, throttle, last-out queue

let debounceProducts: [Product] = [
    .library(name: "Debounce", targets: ["Debounce"]),
]

let debounceTargets: [Target] = [
    .target(name: "Debounce", swiftSettings: strictSwift),
]

// MARK: - Pixels: the image type shared by capture and detection

let pixelsTargets: [Target] = [
    .target(name: "Pixels", swiftSettings: strictSwift),
    .testTarget(name: "PixelsTests", dependencies: ["Pixels"], swiftSettings: strictSwift),
]

// MARK: - Detection: C shim over OpenCV 4.6 and its Swift API

let detectionProducts: [Product] = [
    .library(name: "MarkerDetection", targets: ["MarkerDetection"]),
]

let detectionTargets: [Target] = [
    // OpenCV's compiler and linker flags from pkg-config; no Swift code imports it.
    .systemLibrary(
        name: "COpenCV", path: "Sources/COpenCV", pkgConfig: "opencv4",
        providers: [.apt(["libopencv-dev"])]
    ),
    // A pure C header (include/) over C++ that calls OpenCV; only the header is visible to Swift.
    .target(name: "COpenCVShim", dependencies: ["COpenCV"]),
    .target(name: "MarkerDetection", dependencies: ["Pixels", "COpenCVShim"], swiftSettings: strictSwift),
    // Warping, blur and noise for synthetic ground truth: used by tests only, never exported.
    .target(
        name: "MarkerDetectionTestSupport", dependencies: ["Pixels"],
        path: "Tests/MarkerDetectionTestSupport", swiftSettings: strictSwift
    ),
    .testTarget(name: "COpenCVShimTests", dependencies: ["COpenCVShim"], swiftSettings: strictSwift),
    .testTarget(
        name: "MarkerDetectionTests",
        dependencies: ["MarkerDetection", "MarkerDetectionTestSupport", "Pixels"],
        swiftSettings: strictSwift
    ),
]

// MARK: - Capture: C shim over libv4l2, frame sources, emulated camera

let captureProducts: [Product] = []
let captureTargets: [Target] = []

// MARK: - Package

let package = Package(
    name: "MarkerShutter",
    products: debounceProducts + detectionProducts + captureProducts,
    targets: debounceTargets + pixelsTargets + detectionTargets + captureTargets,
    swiftLanguageModes: [.v6]
)
