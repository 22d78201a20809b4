import EmulatedCameraHarness
import Foundation
import Testing

extension EmulatedCameraTests {
    /// Controls by their v4l2-ctl names: set, refused with the range, locked, and read back by v4l2-ctl.
    @Suite struct ControlSettingTests {
        static let names = [
            "brightness", "contrast", "white_balance_temperature_auto", "gain", "power_line_frequency",
            "white_balance_temperature", "exposure_auto", "exposure_absolute", "focus_absolute", "focus_auto",
        ]

        @Test func controlsAreNamedAsV4L2CtlNamesThem() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration())
            let probe = try await harness.runProbe(["controls", "--device", camera.path])
            #expect(probe.events("control").map { $0.string("v4l2_name") ?? "" } == Self.names)
            let v4l2ctl = try await harness.run("/usr/bin/v4l2-ctl", ["-w", "-d", camera.path, "--list-ctrls"])
            #expect(v4l2ctl.status == 0, "\(v4l2ctl.standardError)")
            let theirs = v4l2ctl.standardOutput.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                return words.count > 2 && words[1].hasPrefix("0x") ? String(words[0]) : nil
            }
            #expect(theirs == Self.names)
        }

        @Test func aControlIsSetByNameAndV4L2CtlReadsTheSameValues() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration())
            let run = try await harness.runProbe([
                "controls", "--device", camera.path, "--control", "gain=100", "--control", "brightness=-10",
                "--exposure", "40000", "--focus", "120",
            ])
            #expect(run.status == 0, "\(run.standardError)")
            let applied = try #require(run.events("applied").first?["controls"] as? [String])
            #expect(applied == [
                "exposure_auto=1", "exposure_absolute=400", "focus_auto=0", "focus_absolute=120", "gain=100", "brightness=-10",
            ])
            let ours = Dictionary(uniqueKeysWithValues: run.events("control").map { ($0.string("v4l2_name")!, $0.int("value")!) })
            #expect(ours["exposure_absolute"] == 400)
            #expect(ours["gain"] == 100)

            // The same assignments through v4l2-ctl: it takes our names and reads back our values.
            let v4l2ctl = try await harness.run("/usr/bin/v4l2-ctl", [
                "-w", "-d", camera.path, "--set-ctrl", applied.joined(separator: ","), "--get-ctrl", Self.names.joined(separator: ","),
            ])
            #expect(v4l2ctl.status == 0, "\(v4l2ctl.standardError)")
            #expect(Self.parseValues(v4l2ctl.standardOutput) == ours)
        }

        @Test func outOfRangeValuesAreRefusedWithTheRange() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration())
            let cases: [([String], String)] = [
                (["--control", "gain=300"], "gain=300 is out of range: gain takes 0...255"),
                (["--control", "focus_absolute=7"], "focus_absolute=7 is out of range: focus_absolute takes 0...250 in steps of 5"),
                (["--control", "exposure_auto=2"], "exposure_auto=2 is out of range: exposure_auto takes 1 (Manual Mode), 3 (Aperture Priority Mode)"),
                (["--exposure", "100"], "exposure 100 µs is out of range: exposure takes 300...204700 µs"),
                (["--exposure", "9223372036854775807"], "exposure 9223372036854775807 µs is out of range: exposure takes 300...204700 µs"),
                (["--focus", "400"], "focus_absolute=400 is out of range: focus_absolute takes 0...250 in steps of 5"),
                (["--control", "zoom=3"], "no control named 'zoom'; the camera has brightness, contrast"),
            ]
            for (arguments, message) in cases {
                let run = try await harness.runProbe(["controls", "--device", camera.path] + arguments)
                let refused = try #require(run.events("refused").first, "\(arguments)")
                #expect(refused.string("message")?.contains(message) == true, "\(refused.string("message") ?? "")")
                #expect(run.events("applied").isEmpty)
                // Nothing changed: every control still holds its default.
                #expect(run.events("control").allSatisfy { $0.int("value") == $0.int("default") }, "\(arguments)")
            }
        }

        @Test func lockFixesExposureGainWhiteBalanceAndFocusAtTheirCurrentValues() async throws {
            let harness = try await makeHarness()
            let camera = try harness.addCamera(EmulatedCameraConfiguration())
            let run = try await harness.runProbe(["controls", "--device", camera.path, "--control", "gain=90", "--lock"])
            #expect(run.status == 0, "\(run.standardError)")
            let applied = try #require(run.events("applied").first?["controls"] as? [String])
            #expect(applied == [
                "gain=90", "exposure_auto=1", "white_balance_temperature_auto=0", "focus_auto=0",
                "exposure_absolute=250", "gain=90", "white_balance_temperature=4600", "focus_absolute=0",
            ])
            let controls = Dictionary(uniqueKeysWithValues: run.events("control").map { ($0.string("v4l2_name")!, $0) })
            for name in ["exposure_absolute", "white_balance_temperature", "focus_absolute", "gain"] {
                #expect(controls[name]?.bool("inactive") == false, "\(name) is settable once locked")
            }
            #expect(controls["exposure_auto"]?.int("value") == 1)
            #expect(controls["white_balance_temperature_auto"]?.int("value") == 0)
            #expect(controls["focus_auto"]?.int("value") == 0)
        }

        /// `gain: 100` lines (menus print `exposure_auto: 1`, possibly followed by the entry's name).
        static func parseValues(_ text: String) -> [String: Int] {
            var values: [String: Int] = [:]
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, let value = parts[1].split(separator: " ").first.flatMap({ Int($0) }) else { continue }
                values[String(parts[0])] = value
            }
            return values
        }
    }
}
