// FrameCaptureProbe: opens a camera with FrameCapture and prints what it saw as JSON lines, for
// tests (run against the emulated camera by Scripts/with-emulated-camera) and for looking at a
// real camera. A test tool, not a product: `swift build` puts it at .build/debug/FrameCaptureProbe.
//
//   FrameCaptureProbe stream   --device PATH [--size WxH] [--fps N] [--format bgr24|gray8] [--camera-format FOURCC]
//                              [--frames N] [--timeout-ms N] [--buffers N] [--queue N]
//                              [--dump DIR] [--dump-count N]
//   FrameCaptureProbe list     [--dir DIR] [--by-id DIR]
//   FrameCaptureProbe formats  --device PATH
//   FrameCaptureProbe controls --device PATH [--manual-exposure V] [--manual-focus V] [--set ID=V]...
//                              [--exposure auto|US] [--focus auto|V] [--control NAME=V]... [--lock]
//
// `controls` prints `set` for each --manual-*/--set, then `applied` (the controls set, as
// NAME=VALUE) or `refused` (the ControlError) for the settings by name, then each `control`.
//
// `stream` prints `opened`, one `frame` per frame, `error` if streaming failed, `signal` when
// SIGINT or SIGTERM arrived (which stops the camera), then `teardown`: the camera's report plus
// what /proc says is still mapped from, or open on, the device file. Exit status: 0 when streaming
// ended by --frames or a signal and teardown left nothing behind, 1 otherwise, 2 for usage errors.

import Dispatch
import Foundation
import FrameCapture
import Pixels

@main
struct FrameCaptureProbe {
    static func main() async {
        var arguments = Arguments(CommandLine.arguments.dropFirst())
        do {
            switch arguments.command {
            case "stream": exit(try await stream(&arguments))
            case "list": try list(&arguments)
            case "formats": try formats(&arguments)
            case "controls": try controls(&arguments)
            default: throw UsageError("unknown command '\(arguments.command)'; use stream, list, formats or controls")
            }
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("FrameCaptureProbe: \(error.message)\n".utf8))
            exit(2)
        } catch let error as ControlError {
            FileHandle.standardError.write(Data("FrameCaptureProbe: \(error)\n".utf8))
            exit(2)
        } catch let error as CaptureError {
            emit(["event": "error"].merging(describe(error)) { $1 })
            exit(1)
        } catch {
            FileHandle.standardError.write(Data("FrameCaptureProbe: \(error)\n".utf8))
            exit(1)
        }
    }

    // MARK: stream

    static func stream(_ arguments: inout Arguments) async throws -> Int32 {
        let device = try arguments.required("--device")
        var settings = CaptureSettings()
        if let size = try arguments.value("--size") {
            let parts = size.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2 else { throw UsageError("--size wants WxH, not \(size)") }
            (settings.width, settings.height) = (parts[0], parts[1])
        }
        if let fps = try arguments.integer("--fps") { settings.framesPerSecond = fps }
        if let format = try arguments.value("--format") {
            guard let pixelFormat = PixelFormat(rawValue: format) else { throw UsageError("--format wants bgr24 or gray8") }
            settings.pixelFormat = pixelFormat
        }
        if let cameraFormat = try arguments.value("--camera-format") {
            guard let fourCC = FourCC(cameraFormat) else { throw UsageError("--camera-format wants four characters, not \(cameraFormat)") }
            settings.cameraFormat = fourCC
        }
        if let timeout = try arguments.integer("--timeout-ms") { settings.frameTimeout = .milliseconds(timeout) }
        if let buffers = try arguments.integer("--buffers") { settings.bufferCount = buffers }
        if let queue = try arguments.integer("--queue") { settings.queueLimit = queue }
        let frameLimit = try arguments.integer("--frames")
        let dumpDirectory = try arguments.value("--dump")
        let dumpCount = try arguments.integer("--dump-count") ?? 1
        try arguments.finish()

        let camera = try Camera(path: device, settings: settings)
        let format = camera.format
        emit([
            "event": "opened", "device": device, "width": format.width, "height": format.height,
            "pixel_format": format.pixelFormat.rawValue, "row_stride": format.rowStride,
            "fps": format.framesPerSecond ?? 0, "interval": format.frameInterval?.description ?? "",
            "device_formats": format.deviceFormats.map(\.description), "matches_request": format.matchesRequest,
            "camera_format": format.cameraFormat?.description ?? "",
        ])

        let signalled = SignalCatcher(signals: [SIGINT, SIGTERM]) { signal in
            emit(["event": "signal", "signal": signal == SIGINT ? "SIGINT" : "SIGTERM", "at_ns": monotonicNanoseconds()])
            camera.stop()
        }
        var count = 0, failed = false
        do {
            for try await frame in camera.frames() {
                let received = monotonicNanoseconds()
                emit([
                    "event": "frame", "sequence": Int(frame.sequence), "timestamp_ns": frame.timestamp.nanoseconds,
                    "received_ns": received, "dropped": frame.droppedBefore, "width": frame.width,
                    "height": frame.height, "row_stride": frame.rowStride, "format": frame.pixels.format.rawValue,
                ])
                if let dumpDirectory, count < dumpCount {
                    try dump(frame, to: dumpDirectory)
                }
                count += 1
                if let frameLimit, count >= frameLimit { camera.stop() }
            }
        } catch {
            failed = true
            emit(["event": "error", "at_ns": monotonicNanoseconds()].merging(describe(error)) { $1 })
        }
        camera.stop()
        signalled.cancel()
        let leftovers = ProcFiles(device: device)
        let statistics = camera.statistics
        var event: [String: Any] = [
            "event": "teardown", "frames": count, "device_mappings": leftovers.mappings,
            "device_descriptors": leftovers.descriptors, "delivered": statistics.delivered,
            "dropped": statistics.dropped, "sequence_gaps": statistics.sequenceGaps,
            "error_flagged": statistics.errorFlagged, "restarts": statistics.restarts,
            "non_monotonic": statistics.nonMonotonicTimestamps, "discarded": statistics.discardedForSlowConsumer,
            "would_block_retries": statistics.wouldBlockRetries, "interrupted_retries": statistics.interruptedRetries,
        ]
        var complete = false
        if let report = camera.teardownReport {
            complete = report.isComplete && leftovers.mappings == 0 && leftovers.descriptors == 0
            event.merge([
                "was_streaming": report.wasStreaming, "streamoff_errno": Int(report.streamOffErrno),
                "buffers_mapped": report.buffersMapped, "buffers_unmapped": report.buffersUnmapped,
                "release_errno": Int(report.releaseErrno), "closed": report.closed, "close_errno": Int(report.closeErrno),
                "complete": complete,
            ]) { $1 }
        }
        emit(event)
        return !failed && complete ? 0 : 1
    }

    static func dump(_ frame: Frame, to directory: String) throws {
        let url = URL(fileURLWithPath: directory).appendingPathComponent("frame-\(frame.sequence).raw")
        let data = frame.pixels.withUnsafeBytes { Data($0) }
        try data.write(to: url)
    }

    // MARK: list, formats, controls

    static func list(_ arguments: inout Arguments) throws {
        let directory = try arguments.value("--dir") ?? "/dev"
        let byID = try arguments.value("--by-id") ?? "/dev/v4l/by-id"
        try arguments.finish()
        for device in CaptureDevice.list(in: directory, stableNamesIn: byID) {
            emit([
                "event": "device", "path": device.path, "stable_names": device.stableNames, "driver": device.driver,
                "card": device.card, "bus_info": device.busInfo,
            ])
        }
    }

    static func formats(_ arguments: inout Arguments) throws {
        let device = try arguments.required("--device")
        try arguments.finish()
        for format in try Camera.formats(of: device) {
            emit([
                "event": "format", "fourcc": format.fourCC.description, "description": format.description,
                "emulated": format.isEmulated, "compressed": format.isCompressed,
                "sizes": format.sizes.map { size in
                    ["width": size.width, "height": size.height, "discrete": size.isDiscrete,
                     "intervals": size.frameIntervals.map(\.description)] as [String: Any]
                },
            ])
        }
    }

    static func controls(_ arguments: inout Arguments) throws {
        let device = try arguments.required("--device")
        let exposure = try arguments.integer("--manual-exposure")
        let focus = try arguments.integer("--manual-focus")
        var assignments: [(ControlID, Int32)] = []
        while let assignment = try arguments.value("--set") {
            let parts = assignment.split(separator: "=")
            guard parts.count == 2, let id = UInt32(parts[0].replacingOccurrences(of: "0x", with: ""), radix: 16),
                  let value = Int32(parts[1]) else { throw UsageError("--set wants HEXID=VALUE, not \(assignment)") }
            assignments.append((ControlID(rawValue: id), value))
        }
        var settings = ControlSettings(lock: try arguments.flag("--lock"))
        if let text = try arguments.value("--exposure") { settings.exposure = try ControlSettings.Mode(parsing: text, of: "--exposure") }
        if let text = try arguments.value("--focus") { settings.focus = try ControlSettings.Mode(parsing: text, of: "--focus") }
        while let text = try arguments.value("--control") { settings.controls.append(try ControlAssignment(parsing: text)) }
        try arguments.finish()
        let camera = try Camera(path: device, settings: CaptureSettings(framesPerSecond: nil))
        var outcomes: [[String: Any]] = []
        func attempt(_ name: String, _ body: () throws(CaptureError) -> Void) {
            do { try body(); outcomes.append(["set": name, "ok": true]) }
            catch { outcomes.append(["set": name, "ok": false].merging(describe(error)) { $1 }) }
        }
        if let exposure { attempt("manual-exposure") { () throws(CaptureError) in try camera.setManualExposure(Int32(exposure)) } }
        if let focus { attempt("manual-focus") { () throws(CaptureError) in try camera.setManualFocus(Int32(focus)) } }
        for (id, value) in assignments { attempt(id.description) { () throws(CaptureError) in try camera.set(id, to: value) } }
        for outcome in outcomes { emit(["event": "set"].merging(outcome) { $1 }) }
        if !settings.isEmpty {
            do {
                emit(["event": "applied", "controls": try camera.apply(settings).map(\.description)])
            } catch {
                emit(["event": "refused", "kind": "\(error.kind)", "control": error.control, "message": error.description])
            }
        }
        for control in try camera.controls() {
            emit([
                "event": "control", "id": control.id.description, "name": control.name, "v4l2_name": control.v4l2Name, "kind": "\(control.kind)",
                "minimum": control.minimum, "maximum": control.maximum, "step": control.step,
                "default": control.defaultValue, "value": control.value.map { $0 as Any } ?? NSNull(),
                "inactive": control.isInactive, "menu": control.menu.map { ["value": $0.value, "name": $0.name] as [String: Any] },
            ])
        }
        camera.stop()
    }

    // MARK: Output

    static func describe(_ error: any Error) -> [String: Any] {
        guard let error = error as? CaptureError else { return ["message": "\(error)"] }
        return ["kind": "\(error.kind)", "call": error.call, "errno": Int(error.errno), "message": error.description]
    }

    static func emit(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}

/// CLOCK_MONOTONIC now, in nanoseconds: the clock of V4L2 buffer timestamps.
func monotonicNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// Handles signals on a dispatch queue instead of letting them end the process.
final class SignalCatcher {
    private let sources: [any DispatchSourceSignal]

    init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    func cancel() { sources.forEach { $0.cancel() } }
}

/// What /proc says this process still has of a device file: mappings and open descriptors.
struct ProcFiles {
    let mappings: Int
    let descriptors: Int

    init(device: String) {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: device)).map {
            URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: device).deletingLastPathComponent()).path
        } ?? URL(fileURLWithPath: device).resolvingSymlinksInPath().path
        let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
        mappings = maps.split(separator: "\n").filter { $0.hasSuffix(" " + target) }.count
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        self.descriptors = descriptors.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == target
        }.count
    }
}

struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// `--name value` options after a command word.
struct Arguments {
    let command: String
    private var rest: [String]

    init(_ arguments: ArraySlice<String>) {
        command = arguments.first ?? ""
        rest = Array(arguments.dropFirst())
    }

    mutating func value(_ name: String) throws -> String? {
        guard let index = rest.firstIndex(of: name) else { return nil }
        guard index + 1 < rest.count else { throw UsageError("\(name) needs a value") }
        let value = rest[index + 1]
        rest.removeSubrange(index...index + 1)
        return value
    }

    mutating func required(_ name: String) throws -> String {
        guard let value = try value(name) else { throw UsageError("\(command) needs \(name)") }
        return value
    }

    mutating func integer(_ name: String) throws -> Int? {
        guard let text = try value(name) else { return nil }
        guard let number = Int(text) else { throw UsageError("\(name) wants a number, not \(text)") }
        return number
    }

    /// Whether `name` is given (and removes it).
    mutating func flag(_ name: String) throws -> Bool {
        guard let index = rest.firstIndex(of: name) else { return false }
        rest.remove(at: index)
        return true
    }

    func finish() throws {
        if !rest.isEmpty { throw UsageError("unexpected arguments: \(rest.joined(separator: " "))") }
    }
}
