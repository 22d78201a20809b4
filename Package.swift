// swift-tools-version: 6.1
//
// MarkerShutter: capture camera-calibration images only while a calibration target is seen.
//
// The targets follow the data flow, one folder each under Sources/:
//
//   V4L2 camera -> FrameCapture (over CV4L2Shim) -> MarkerDetection (over COpenCVShim)
//               -> Debounce (conditional debouncer) -> MarkerShutter (pipeline) -> marker-shutter
//   pictures -> Calibration (over CCalibrationShim, CCeresShim) -> marker-shutter calibrate
//   MarkerShutter -> Sharding (process --shard, merge) -> marker-shutter
//                           `-> MarkerShutter (`live --calibrate` solves as pictures are taken)
//
// The files both of those write and read (picture sidecars, manifest lines, `process` rows) are
// written and read by one type each in FileFormats, below both; so is where a command may write
// (SafeOutput: atomic files, folders of results, the input and device checks).
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
    .library(name: "DebounceTesting", targets: ["DebounceTesting"]),
    .executable(name: "debounce-examples", targets: ["DebounceExamples"]),
]

let debounceTargets: [Target] = [
    .target(name: "Debounce", swiftSettings: strictSwift),
    .target(name: "DebounceTesting", dependencies: ["Debounce"], swiftSettings: strictSwift),
    .executableTarget(
        name: "DebounceExamples",
        dependencies: ["Debounce"],
        path: "Samples/DebounceExamples",
        swiftSettings: strictSwift
    ),
    .testTarget(name: "DebounceTests", dependencies: ["Debounce", "DebounceTesting"], swiftSettings: strictSwift),
]

// MARK: - System calls: EINTR retry and errno text, in one place for every target below

let systemCallTargets: [Target] = [
    // Internal to the package (`package` access): no product, no public API.
    .target(name: "SystemCalls", swiftSettings: strictSwift),
    .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls"], swiftSettings: strictSwift),
]

// MARK: - File formats: the project's own files, each written and read by one type

let fileFormatTargets: [Target] = [
    // Foundation alone, so that Fuzz/build can compile it into the sidecar and manifest harnesses.
    .target(name: "FileFormats", dependencies: ["SystemCalls"], swiftSettings: strictSwift),
    .testTarget(name: "FileFormatsTests", dependencies: ["FileFormats"], swiftSettings: strictSwift),
]

// MARK: - Pixels: the image type shared by capture and detection

let pixelsTargets: [Target] = [
    .target(name: "Pixels", swiftSettings: strictSwift),
    .testTarget(name: "PixelsTests", dependencies: ["Pixels"], swiftSettings: strictSwift),
]

// MARK: - Shim convention: one status, error record and pixel description for every C shim

let shimTargets: [Target] = [
    // Pure C (include/CShimCore.h), and the C++ guard (include/shim_guard.hpp) the C++ shims include.
    .target(name: "CShimCore"),
    // Reads the error record into a Swift error and describes pixel buffers for the shims; each
    // module turns the error into its own (`package` access: no product, no public API).
    .target(name: "ShimCore", dependencies: ["CShimCore", "Pixels"], swiftSettings: strictSwift),
]

// MARK: - OpenCV 4.6 (Debian's libopencv-dev): headers through each shim's `opencv4` link to
// /usr/include/opencv4, and only the modules a shim calls. pkg-config's opencv4 would link all of
// OpenCV's modules (about 60, 380 libraries with theirs), which the loader then maps at every start.

let openCVHeaders: [CXXSetting] = [.headerSearchPath("opencv4")]

func openCVLibraries(_ modules: [String]) -> [LinkerSetting] {
    (["core"] + modules).map { .linkedLibrary("opencv_" + $0) }
}

// MARK: - Detection: C shims over OpenCV 4.6 and libapriltag 3, and their Swift API

let detectionProducts: [Product] = [
    .library(name: "MarkerDetection", targets: ["MarkerDetection"]),
]

let detectionTargets: [Target] = [
    // A pure C header (include/) over C++ that calls OpenCV; only the header is visible to Swift.
    // libjpeg and libpng (the libraries OpenCV's codecs use) read and write JPEG and PNG files;
    // OpenCV's imgcodecs, whose other codecs bring about 140 libraries, is loaded (dlopen) only to
    // read a BMP or TIFF file.
    .target(
        name: "COpenCVShim", dependencies: ["CShimCore"], exclude: ["opencv4"], cxxSettings: openCVHeaders,
        linkerSettings: openCVLibraries(["imgproc", "features2d", "calib3d", "aruco"])
            + [.linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("dl")]
    ),
    // A pure C header over libapriltag 3 (Debian's libapriltag-dev ships no pkg-config file; its
    // image and container helpers live in libapriltag-utils): the AprilTag and AprilGrid backend.
    .target(
        name: "CAprilTagShim", dependencies: ["CShimCore"],
        linkerSettings: [.linkedLibrary("apriltag"), .linkedLibrary("apriltag-utils"), .linkedLibrary("m")]
    ),
    .target(name: "MarkerDetection", dependencies: ["Pixels", "SystemCalls", "COpenCVShim", "CAprilTagShim", "ShimCore"], swiftSettings: strictSwift),
    // Warping, blur and noise for synthetic ground truth: used by tests only, never exported.
    .target(
        name: "MarkerDetectionTestSupport", dependencies: ["Pixels", "MarkerDetection"],
        path: "Tests/MarkerDetectionTestSupport", swiftSettings: strictSwift
    ),
    .testTarget(name: "COpenCVShimTests", dependencies: ["COpenCVShim", "CShimCore"], swiftSettings: strictSwift),
    .testTarget(
        name: "MarkerDetectionTests",
        dependencies: ["MarkerDetection", "MarkerDetectionTestSupport", "Pixels"],
        swiftSettings: strictSwift
    ),
]

// MARK: - Calibration: camera models solved from the pictures' detections

let calibrationProducts: [Product] = [
    .library(name: "Calibration", targets: ["Calibration"]),
]

let calibrationTargets: [Target] = [
    // A pure C header over OpenCV's calib3d (calibration, projection, undistortion) and drawing.
    .target(name: "CCalibrationShim", dependencies: ["CShimCore"], exclude: ["opencv4"], cxxSettings: openCVHeaders,
            linkerSettings: openCVLibraries(["imgproc", "calib3d"])),
    // Eigen's compiler flags from pkg-config, for Ceres Solver's headers (Debian's libceres-dev
    // ships no pkg-config file of its own); no Swift code imports it.
    .systemLibrary(
        name: "CCeres", path: "Sources/CCeres", pkgConfig: "eigen3", providers: [.apt(["libceres-dev"])]
    ),
    // A pure C header over Ceres Solver: the refinement that follows OpenCV's solve, robust per
    // corner, and the intrinsics' covariance. Ceres's headers log through glog (CHECK macros), so
    // the shim links glog as well as ceres. CShimCore's guard also catches cv::Exception, hence
    // OpenCV's headers and core.
    .target(
        name: "CCeresShim", dependencies: ["CCeres", "CShimCore"], exclude: ["opencv4"],
        // Optimised in debug builds too: unoptimised, Ceres's automatic derivatives make a solve of
        // 30 views take seconds, and the tests run hundreds.
        cxxSettings: openCVHeaders + [.unsafeFlags(["-O2"])],
        linkerSettings: [.linkedLibrary("ceres"), .linkedLibrary("glog")] + openCVLibraries([])
    ),
    .target(
        // Yams (libyaml) reads the YAML that ROS and Kalibr write, for `compare`.
        name: "Calibration",
        dependencies: [
            "FileFormats", "MarkerDetection", "Pixels", "SystemCalls", "CCalibrationShim", "CCeresShim", "ShimCore",
            .product(name: "Yams", package: "Yams"),
        ],
        swiftSettings: strictSwift
    ),
    .testTarget(
        name: "CalibrationTests",
        dependencies: [
            "Calibration", "FileFormats", "MarkerDetection", "MarkerDetectionTestSupport", "Pixels", "SystemCalls",
            .product(name: "Yams", package: "Yams"),
        ],
        swiftSettings: strictSwift
    ),
]

// MARK: - Capture: C shim over libv4l2, frame sources, emulated camera

let captureProducts: [Product] = [
    .library(name: "FrameCapture", targets: ["FrameCapture"]),
]

let captureTargets: [Target] = [
    .target(name: "CV4L2Shim", linkerSettings: [.linkedLibrary("v4l2"), .linkedLibrary("v4lconvert")]),
    .target(name: "FrameCapture", dependencies: ["CV4L2Shim", "Pixels", "SystemCalls"], swiftSettings: strictSwift),
    // Test machinery lives under Tests/Support, one target per folder. The emulated camera there
    // (Tests/Support/EmulatedCamera, a libv4l2 plugin) is no target: SwiftPM links a shared object
    // only for a product, and a product would ship it to every user of the package, so
    // Scripts/build-emulated-camera compiles it when a test or Scripts/with-emulated-camera needs it.
    // Prints what a camera delivers as JSON lines; tests run it under Scripts/with-emulated-camera.
    .executableTarget(
        name: "FrameCaptureProbe", dependencies: ["FrameCapture", "Pixels"], path: "Tests/Support/FrameCaptureProbe",
        swiftSettings: strictSwift
    ),
    // An in-memory device behind the shim's I/O table, for tests of faults no device makes on demand.
    .target(name: "CV4L2Fake", dependencies: ["CV4L2Shim"], path: "Tests/Support/CV4L2Fake"),
    // Runs programs against emulated cameras (through Scripts/with-emulated-camera), for tests.
    .target(name: "EmulatedCameraHarness", path: "Tests/Support/EmulatedCameraHarness", swiftSettings: strictSwift),
    .testTarget(
        name: "FrameCaptureTests",
        dependencies: ["FrameCapture", "Pixels", "CV4L2Fake", "EmulatedCameraHarness", "FrameCaptureProbe"],
        swiftSettings: strictSwift),
]

// MARK: - Pipeline: frames -> detection -> shutter states, live and offline

let pipelineProducts: [Product] = [
    .library(name: "MarkerShutter", targets: ["MarkerShutter"]),
    .executable(name: "marker-shutter", targets: ["MarkerShutterCLI"]),
]

let pipelineTargets: [Target] = [
    .target(
        name: "MarkerShutter",
        dependencies: ["Debounce", "FileFormats", "Pixels", "SystemCalls", "MarkerDetection", "FrameCapture", "Calibration"],
        swiftSettings: strictSwift
    ),
    // The command-line tool: parses, builds a configuration, calls the library, prints.
    .executableTarget(
        name: "MarkerShutterCLI",
        dependencies: [
            "MarkerShutter", "FileFormats", "MarkerDetection", "Calibration", "FrameCapture", "Pixels", "Debounce", "BrowserView",
            "PreviewWindow", "Sharding", "RosBags",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ],
        swiftSettings: strictSwift
    ),
    .testTarget(
        name: "MarkerShutterTests",
        dependencies: [
            "MarkerShutter", "Debounce", "DebounceTesting", "FileFormats", "MarkerDetection", "MarkerDetectionTestSupport",
            "Pixels", "FrameCapture", "Calibration", "Sharding",
        ],
        swiftSettings: strictSwift
    ),
    // Runs the built marker-shutter; depending on the executable makes `swift test` build it.
    .testTarget(
        name: "MarkerShutterCLITests",
        dependencies: ["MarkerShutterCLI", "MarkerDetection", "MarkerDetectionTestSupport", "Pixels", "HTTPTestSupport", "BrowserView"],
        swiftSettings: strictSwift
    ),
    // `marker-shutter live` end to end against the emulated camera, on frames the tests draw.
    .testTarget(
        name: "MarkerShutterLiveTests",
        dependencies: [
            "MarkerShutter", "MarkerDetection", "MarkerDetectionTestSupport", "Pixels", "EmulatedCameraHarness",
            "MarkerShutterCLI", "HTTPTestSupport",
        ],
        swiftSettings: strictSwift
    ),
]

// MARK: - Sharding: `process --shard` cuts a folder over the tasks of an array job, `merge` puts it back

let shardingTargets: [Target] = [
    // Shard files (their lines are FileFormats' ShardLine), folder lists, the merge.
    .target(
        name: "Sharding", dependencies: ["MarkerShutter", "FileFormats", "MarkerDetection", "SystemCalls"],
        swiftSettings: strictSwift
    ),
]

// MARK: - View: the live session in a browser, over Hummingbird 2

let viewProducts: [Product] = [
    .library(name: "BrowserView", targets: ["BrowserView"]),
]

let viewTargets: [Target] = [
    // The page, the MJPEG stream, state, events and commands over HTTP; fed by the live session.
    .target(
        name: "BrowserView",
        dependencies: [
            "MarkerShutter", "Calibration", "MarkerDetection", "Pixels", "SystemCalls",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ],
        swiftSettings: strictSwift
    ),
    .testTarget(
        name: "BrowserViewTests",
        dependencies: ["BrowserView", "MarkerShutter", "MarkerDetection", "Pixels", "DebounceTesting", "HTTPTestSupport"],
        swiftSettings: strictSwift
    ),
    // A blocking HTTP/1.1 client for tests of servers: the view's endpoints, chromedriver's.
    .target(name: "HTTPTestSupport", path: "Tests/Support/HTTPTestSupport", swiftSettings: strictSwift),
]

// MARK: - Preview: the live session in a native window (OpenCV highgui over X11)

let previewProducts: [Product] = [
    .library(name: "PreviewWindow", targets: ["PreviewWindow"]),
]

let previewTargets: [Target] = [
    // A pure C header over highgui (window, frames, keys) and Xlib (is there a display at all).
    // Neither is linked: both are loaded (dlopen) when --preview first needs them, so that no other
    // command maps highgui and the Qt 5 it brings (Scripts/package-deb names their packages).
    .target(name: "CPreviewShim", dependencies: ["CShimCore"], exclude: ["opencv4"], cxxSettings: openCVHeaders,
            linkerSettings: openCVLibraries([]) + [.linkedLibrary("dl")]),
    // The window on a thread of its own, showing the newest frame annotated.
    .target(name: "PreviewWindow", dependencies: ["CPreviewShim", "ShimCore", "MarkerDetection", "Pixels"], swiftSettings: strictSwift),
    .testTarget(
        name: "PreviewWindowTests", dependencies: ["PreviewWindow", "MarkerDetection", "Pixels"], swiftSettings: strictSwift
    ),
]

// MARK: - ROS bags: the recordings ROS users have, as frames for process, calibrate and live --replay

let bagProducts: [Product] = [
    .library(name: "RosBags", targets: ["RosBags"]),
]

let bagTargets: [Target] = [
    // Debian's libzstd, liblz4 (its frame format), libbz2 and zlib's CRC-32: the chunks of ROS 1 bags
    // and MCAP files, rosbag2's compressed messages.
    .systemLibrary(name: "CBagCompression", providers: [.apt(["libzstd-dev", "liblz4-dev", "libbz2-dev", "zlib1g-dev"])]),
    // Debian's libsqlite3: rosbag2's .db3 files.
    .systemLibrary(name: "CSQLite3", providers: [.apt(["libsqlite3-dev"])]),
    // A pure C header over OpenCV's demosaicing, for the Bayer images cameras record.
    .target(name: "CBayerShim", dependencies: ["CShimCore"], exclude: ["opencv4"], cxxSettings: openCVHeaders,
            linkerSettings: openCVLibraries(["imgproc"])),
    // ROS 1 bags, MCAP files and rosbag2 folders read as their specifications say, sensor_msgs/Image
    // and CompressedImage deserialized by hand, and their frames as FrameFolders, rigs and PictureSets.
    .target(
        name: "RosBags",
        dependencies: [
            "CBagCompression", "CSQLite3", "CBayerShim", "CShimCore", "ShimCore", "SystemCalls", "Pixels", "MarkerDetection",
            "FileFormats", "MarkerShutter", "Calibration", .product(name: "Yams", package: "Yams"),
        ],
        swiftSettings: strictSwift
    ),
    .testTarget(
        name: "RosBagsTests",
        // The executable too: `swift test` builds it for the tests that run `process` and `calibrate` on bags.
        dependencies: ["RosBags", "MarkerShutter", "Calibration", "MarkerDetection", "Pixels", "FileFormats", "MarkerShutterCLI"],
        // The writer of the tests' recordings, run with Python (rosbags, mcap).
        exclude: ["Python"],
        swiftSettings: strictSwift
    ),
]

// MARK: - Samples: the recorded sample session and the program that renders it

let samplesProducts: [Product] = [
    .executable(name: "make-sample-session", targets: ["SessionMaker"]),
]

let samplesTargets: [Target] = [
    // Renders Samples/charuco-session with the synthetic-image tools the detection tests use.
    .executableTarget(
        name: "SessionMaker",
        dependencies: ["MarkerShutter", "MarkerDetection", "MarkerDetectionTestSupport", "Pixels"],
        path: "Samples/SessionMaker",
        swiftSettings: strictSwift
    ),
]

// MARK: - Package

var products: [Product] = debounceProducts
products += detectionProducts
products += calibrationProducts
products += captureProducts
products += pipelineProducts
products += viewProducts
products += previewProducts
products += bagProducts
products += samplesProducts

var targets: [Target] = debounceTargets
targets += systemCallTargets
targets += fileFormatTargets
targets += pixelsTargets
targets += shimTargets
targets += detectionTargets
targets += calibrationTargets
targets += captureTargets
targets += pipelineTargets
targets += shardingTargets
targets += viewTargets
targets += previewTargets
targets += bagTargets
targets += samplesTargets

let package = Package(
    name: "MarkerShutter",
    products: products,
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // ROS's and Kalibr's YAML for `compare`, rosbag2's metadata.yaml; in the tests, an independent reader of the calibration files.
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        // The live view's HTTP server; its swift-configuration support is not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: ["FullFoundation"]),
        // Hummingbird's own foundations, named because the view uses their types directly.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.70.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
    ],
    targets: targets,
    swiftLanguageModes: [.v6]
)
