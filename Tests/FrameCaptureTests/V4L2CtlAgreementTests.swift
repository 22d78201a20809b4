import EmulatedCameraHarness
import Foundation
import Testing

extension EmulatedCameraTests {
    /// v4l2-ctl (through libv4l2, `-w`) and FrameCapture describe the emulated camera the same way.
    @Suite struct V4L2CtlAgreementTests {
        private let configuration = EmulatedCameraConfiguration(
            name: "Agreement Camera", formats: [.mjpeg, .yuyv], sizes: [(1280, 720), (640, 480), (320, 240)], rates: [30, 20, 5])

        struct Size: Hashable { let width, height: Int; let fps: [Double] }
        struct Format: Hashable { let fourCC: String; let sizes: [Size] }

        @Test func formatsSizesAndIntervalsAgree() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(configuration)
            let v4l2ctl = try await harness.run("/usr/bin/v4l2-ctl", ["-w", "-d", camera.path, "--list-formats-ext"])
            #expect(v4l2ctl.status == 0, "\(v4l2ctl.standardError)")
            let probe = try await harness.runProbe(["formats", "--device", camera.path])
            #expect(probe.status == 0, "\(probe.standardError)")

            let ours = probe.events("format").map { format in
                Format(fourCC: format.string("fourcc") ?? "", sizes: (format["sizes"] as? [[String: any Sendable]] ?? []).map { size in
                    Size(width: size.int("width") ?? 0, height: size.int("height") ?? 0,
                         fps: (size["intervals"] as? [String] ?? []).map(Self.framesPerSecond))
                })
            }
            let theirs = Self.parseFormats(v4l2ctl.standardOutput)
            #expect(ours == theirs)
            // The camera's own two, then libv4lconvert's four, each at the three sizes and three rates.
            #expect(ours.map(\.fourCC) == ["MJPG", "YUYV", "RGB3", "BGR3", "YU12", "YV12"])
            #expect(ours.allSatisfy { $0.sizes.map { "\($0.width)x\($0.height)" } == ["1280x720", "640x480", "320x240"] })
            #expect(ours.allSatisfy { $0.sizes.allSatisfy { $0.fps == [30, 20, 5] } })
            #expect(probe.events("format").map { $0.bool("emulated") } == [false, false, true, true, true, true])
        }

        @Test func controlsAgree() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(configuration)
            let v4l2ctl = try await harness.run("/usr/bin/v4l2-ctl", ["-w", "-d", camera.path, "--list-ctrls-menus"])
            #expect(v4l2ctl.status == 0, "\(v4l2ctl.standardError)")
            let probe = try await harness.runProbe(["controls", "--device", camera.path])
            #expect(probe.status == 0, "\(probe.standardError)")

            let theirs = Self.parseControls(v4l2ctl.standardOutput)
            let ours = probe.events("control").map { control in
                Control(
                    id: UInt32(control.string("id")!.dropFirst(2), radix: 16)!, minimum: control.int("minimum")!,
                    maximum: control.int("maximum")!, defaultValue: control.int("default")!, value: control.int("value")!,
                    inactive: control.bool("inactive")!,
                    menu: (control["menu"] as? [[String: any Sendable]] ?? []).map { "\($0.int("value")!): \($0.string("name")!)" })
            }
            #expect(ours.count == 10)
            #expect(ours == theirs)
            #expect(ours.first { $0.id == 0x009a_0902 }?.inactive == true, "exposure is inactive under auto exposure")
        }

        struct Control: Hashable {
            let id: UInt32
            let minimum, maximum, defaultValue, value: Int
            let inactive: Bool
            let menu: [String]
        }

        static func framesPerSecond(_ interval: String) -> Double {
            let parts = interval.split(separator: "/").compactMap { Double($0) }
            return (parts[1] / parts[0] * 1000).rounded() / 1000
        }

        /// `[0]: 'YUYV' (...)`, `Size: Discrete 640x480`, `Interval: Discrete 0.033s (30.000 fps)`.
        static func parseFormats(_ text: String) -> [Format] {
            var formats: [(String, [Size])] = []
            for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                if line.hasPrefix("["), let quote = line.firstIndex(of: "'") {
                    formats.append((String(line[line.index(after: quote)...].prefix(4)), []))
                } else if line.hasPrefix("Size: Discrete "), !formats.isEmpty {
                    let size = line.dropFirst("Size: Discrete ".count).split(separator: "x").compactMap { Int($0) }
                    formats[formats.count - 1].1.append(Size(width: size[0], height: size[1], fps: []))
                } else if line.hasPrefix("Interval: Discrete "), let open = line.lastIndex(of: "("), !formats.isEmpty {
                    let fps = Double(line[line.index(after: open)...].split(separator: " ")[0])!
                    var sizes = formats[formats.count - 1].1
                    let last = sizes.removeLast()
                    sizes.append(Size(width: last.width, height: last.height, fps: last.fps + [fps]))
                    formats[formats.count - 1].1 = sizes
                }
            }
            return formats.map { Format(fourCC: $0.0, sizes: $0.1) }
        }

        /// `name 0x00980900 (int) : min=-64 max=64 step=1 default=0 value=0 flags=inactive`, then menu
        /// lines `1: Manual Mode`.
        static func parseControls(_ text: String) -> [Control] {
            var controls: [Control] = []
            var pending: (id: UInt32, fields: [String: String], menu: [String])?
            func flush() {
                guard let p = pending else { return }
                let number = { (key: String) in Int(p.fields[key] ?? "") ?? 0 }
                controls.append(Control(
                    id: p.id, minimum: number("min"), maximum: p.fields["max"].flatMap { Int($0) } ?? 1,
                    defaultValue: number("default"), value: number("value"),
                    inactive: p.fields["flags"]?.contains("inactive") ?? false, menu: p.menu))
            }
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ", omittingEmptySubsequences: true)
                if words.count > 2, words[1].hasPrefix("0x"), let id = UInt32(words[1].dropFirst(2), radix: 16) {
                    flush()
                    var fields: [String: String] = [:]
                    for word in words where word.contains("=") {
                        let pair = word.split(separator: "=", maxSplits: 1)
                        fields[String(pair[0])] = String(pair[1])
                    }
                    pending = (id, fields, [])
                } else if line.hasPrefix("\t"), let colon = line.firstIndex(of: ":") {
                    let value = line[..<colon].trimmingCharacters(in: .whitespaces)
                    let name = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    pending?.menu.append("\(value): \(name)")
                }
            }
            flush()
            return controls
        }
    }
}
