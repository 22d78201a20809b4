@testable import FileFormats
import Foundation
import Testing

/// rig.json: written with its keys sorted and the parts a rig lacks left out, read back field by
/// field to what was written, and hostile files refused with the field that is wrong before a
/// decoder that recurses per level, or an allocation the size of a claim, meets them.
@Suite struct RigFileTests {
    static func parameter(_ name: String?, _ value: Double, std: Double = 0.5, dof: Int = 9) -> RigFile.Parameter {
        var parameter = RigFile.Parameter()
        parameter.name = name
        parameter.value = FiniteNumber(value)
        parameter.std = FiniteNumber(std)
        parameter.ci95 = FiniteNumber.list([value - 1.96 * std, value + 1.96 * std])
        parameter.noise_std = FiniteNumber(std / 2)
        parameter.spread_std = FiniteNumber(std / 3)
        parameter.spread_dof = dof
        return parameter
    }

    static func camera(_ name: String, fx: Double, baseline: Double) -> RigFile.Camera {
        var camera = RigFile.Camera()
        camera.name = name
        camera.distortion_model = "pinhole-radtan"
        camera.image_width = 640
        camera.image_height = 480
        camera.camera_matrix = FiniteNumber.list([fx, 0, 320.25, 0, fx + 1, 240.5, 0, 0, 1])
        camera.distortion_coefficients = FiniteNumber.list([-0.29, 0.1027, 0.00108, -0.00011, 0])
        camera.parameters = [Self.parameter("fx", fx), Self.parameter("fy", fx + 1), Self.parameter("cx", 320.25), Self.parameter("cy", 240.5)]
        camera.covariance = (0..<4).map { row in FiniteNumber.list((0..<4).map { row == $0 ? 0.25 : 0.01 }) }
        camera.rms = FiniteNumber(0.194)
        camera.corner_drop_threshold = FiniteNumber(1.25)
        camera.corners_dropped = [RigFile.DroppedCorners(set: "03", ids: [4, 17])]
        camera.sets = ["01", "02", "03"]
        camera.extrinsics.rotation_matrix = FiniteNumber.list([1, 0, 0, 0, 1, 0, 0, 0, 1])
        camera.extrinsics.rotation_vector = FiniteNumber.list([0.0065, 0.004, -0.0035])
        camera.extrinsics.translation = FiniteNumber.list([-baseline, 0.0009, -0.00017])
        camera.extrinsics.baseline = Self.parameter(nil, baseline, std: 0.00014)
        camera.extrinsics.rotation_angle_degrees = Self.parameter(nil, 0.482, std: 0.1)
        camera.extrinsics.rotation_vector_degrees = [0.374, 0.229, -0.2].map { Self.parameter(nil, $0, std: 0.1) }
        camera.extrinsics.translation_values = [-baseline, 0.0009, -0.00017].map { Self.parameter(nil, $0, std: 0.0001) }
        camera.extrinsics.covariance = (0..<6).map { row in FiniteNumber.list((0..<6).map { row == $0 ? 1e-8 : 0 }) }
        camera.own_rms = FiniteNumber(0.178)
        camera.own_views_used = 13
        return camera
    }

    /// A rig of two cameras with every part a file can have.
    static func file() -> RigFile {
        var file = RigFile()
        file.pattern = "chessboard:9x6:square=25mm"
        file.cameras = [Self.camera("left", fx: 533.6, baseline: 0), Self.camera("right", fx: 536.74, baseline: 0.08317)]
        file.sets = [
            RigFile.SolvedSet(name: "01", cameras: ["left", "right"], rms: FiniteNumber(0.2), epipolar_error: FiniteNumber(0.131)),
            RigFile.SolvedSet(name: "02", cameras: ["left"], rms: FiniteNumber(0.19), epipolar_error: nil),
        ]
        file.sets_dropped = [CalibrationFile.Rejected(name: "10", reason: "RMS 2.1 px is over 3 times the median")]
        file.placement = [RigFile.Link(camera: "right", from: "left", shared_sets: 13)]
        var pair = RigFile.Pair()
        pair.first = "left"
        pair.second = "right"
        pair.R1 = FiniteNumber.list([1, 0, 0, 0, 1, 0, 0, 0, 1])
        pair.R2 = FiniteNumber.list([1, 0, 0, 0, 1, 0, 0, 0, 1])
        pair.P1 = FiniteNumber.list([500, 0, 320, 0, 0, 500, 240, 0, 0, 0, 1, 0])
        pair.P2 = FiniteNumber.list([500, 0, 320, -41.6, 0, 500, 240, 0, 0, 0, 1, 0])
        pair.Q = FiniteNumber.list([1, 0, 0, -320, 0, 1, 0, -240, 0, 0, 0, 500, 0, 0, 12.02, 0])
        pair.epipolar_errors = [RigFile.EpipolarError(set: "01", error: FiniteNumber(0.131))]
        pair.mean_epipolar_error = FiniteNumber(0.131)
        file.pairs = [pair]
        file.stereo = RigFile.Stereo(
            R: FiniteNumber.list([1, 0, 0, 0, 1, 0, 0, 0, 1]), T: FiniteNumber.list([-0.08317, 0.0009, -0.00017]),
            E: FiniteNumber.list([0, 0.00017, 0.0009, -0.00017, 0, 0.08317, -0.0009, -0.08317, 0]),
            F: FiniteNumber.list([0, 1e-9, 1e-6, -1e-9, 0, 2e-4, -1e-6, -2e-4, 1]))
        file.rms = FiniteNumber(0.196)
        file.first_rms = FiniteNumber(0.201)
        file.degrees_of_freedom = 2_710
        file.intrinsics_refined = true
        file.outlier_rule = "a set over 3 times the median RMS"
        file.corner_rule = "corners over 3 sigma, camera by camera"
        file.epipolar_error_note = "the mean absolute difference of a corner's rows"
        file.interval_note = "95% intervals cover the corners' scatter and the spread between sets"
        file.set_spread.groups = 10
        file.set_spread.degrees_of_freedom = 9
        file.set_spread.left_out = [["01"], ["02", "03"]]
        file.units_note = "translations and baselines are in metres"
        return file
    }

    static let text = file().text

    @Test func keysAreSortedAndAPartTheRigLacksIsLeftOut() throws {
        #expect(Self.text.hasSuffix("}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(Self.text.utf8)) as? [String: Any])
        #expect(object.keys.sorted() == [
            "cameras", "corner_rule", "degrees_of_freedom", "epipolar_error_note", "first_rms", "interval_note", "intrinsics_refined",
            "outlier_rule", "pairs", "pattern", "placement", "rms", "set_spread", "sets", "sets_dropped", "stereo", "units_note",
        ])
        #expect(Self.text.range(of: "\"cameras\"")!.lowerBound < Self.text.range(of: "\"units_note\"")!.lowerBound)
        let cameras = try #require(object["cameras"] as? [[String: Any]])
        let baseline = try #require((cameras[1]["extrinsics"] as? [String: Any])?["baseline"] as? [String: Any])
        #expect(baseline.keys.sorted() == ["ci95", "noise_std", "spread_dof", "spread_std", "std", "value"], "a value its key names has no name")
        let fx = try #require((cameras[1]["parameters"] as? [[String: Any]])?.first)
        #expect(fx.keys.sorted() == ["ci95", "name", "noise_std", "spread_dof", "spread_std", "std", "value"])
        let sets = try #require(object["sets"] as? [[String: Any]])
        #expect(sets[1]["epipolar_error"] == nil, "a set the first two cameras did not both see has no epipolar error")
        var three = Self.file()
        three.stereo = nil
        three.pairs[0].R1 = nil
        #expect(!three.text.contains("\"stereo\"") && !three.text.contains("\"R1\""))
        #expect(try RigFile.read(Array(three.text.utf8)).stereo == nil)
    }

    @Test func everyFieldReadsBackAsWritten() throws {
        let read = try RigFile.read(Array(Self.text.utf8))
        #expect(read.text == Self.text)
        #expect(read.pattern == "chessboard:9x6:square=25mm")
        #expect(read.cameras.count == 2)
        let right = read.cameras[1]
        #expect(right.name == "right" && right.distortion_model == "pinhole-radtan" && right.image_width == 640 && right.image_height == 480)
        #expect(right.camera_matrix == FiniteNumber.list([536.74, 0, 320.25, 0, 537.74, 240.5, 0, 0, 1]))
        #expect(right.distortion_coefficients == FiniteNumber.list([-0.29, 0.1027, 0.00108, -0.00011, 0]))
        #expect(right.parameters.map(\.name) == ["fx", "fy", "cx", "cy"])
        let fx = right.parameters[0]
        #expect(fx.value.value == 536.74 && fx.std.value == 0.5 && fx.noise_std.value == 0.25 && fx.spread_std.value == 0.5 / 3)
        #expect(fx.ci95 == FiniteNumber.list([536.74 - 0.98, 536.74 + 0.98]) && fx.spread_dof == 9)
        #expect(right.covariance.count == 4 && right.covariance[2][2].value == 0.25 && right.covariance[2][3].value == 0.01)
        #expect(right.rms.value == 0.194 && right.corner_drop_threshold.value == 1.25)
        #expect(right.corners_dropped.map(\.set) == ["03"] && right.corners_dropped[0].ids == [4, 17])
        #expect(right.sets == ["01", "02", "03"] && right.own_rms.value == 0.178 && right.own_views_used == 13)
        let extrinsics = right.extrinsics
        #expect(extrinsics.rotation_matrix == FiniteNumber.list([1, 0, 0, 0, 1, 0, 0, 0, 1]))
        #expect(extrinsics.rotation_vector == FiniteNumber.list([0.0065, 0.004, -0.0035]))
        #expect(extrinsics.translation == FiniteNumber.list([-0.08317, 0.0009, -0.00017]))
        #expect(extrinsics.baseline.name == nil && extrinsics.baseline.value.value == 0.08317 && extrinsics.baseline.std.value == 0.00014)
        #expect(extrinsics.rotation_angle_degrees.value.value == 0.482 && extrinsics.rotation_angle_degrees.spread_dof == 9)
        #expect(extrinsics.rotation_vector_degrees.map(\.value.value) == [0.374, 0.229, -0.2])
        #expect(extrinsics.translation_values.map(\.value.value) == [-0.08317, 0.0009, -0.00017])
        #expect(extrinsics.covariance.count == 6 && extrinsics.covariance[5][5].value == 1e-8)
        #expect(read.sets.map(\.name) == ["01", "02"] && read.sets[0].cameras == ["left", "right"] && read.sets[1].cameras == ["left"])
        #expect(read.sets[0].rms.value == 0.2 && read.sets[0].epipolar_error?.value == 0.131 && read.sets[1].epipolar_error == nil)
        #expect(read.sets_dropped.map(\.name) == ["10"] && read.sets_dropped[0].reason == "RMS 2.1 px is over 3 times the median")
        #expect(read.placement.map(\.camera) == ["right"] && read.placement[0].from == "left" && read.placement[0].shared_sets == 13)
        let pair = try #require(read.pairs.first)
        #expect(pair.first == "left" && pair.second == "right" && pair.R1?.count == 9 && pair.R2?.count == 9)
        #expect(pair.P2?[3].value == -41.6 && pair.P1?.count == 12 && pair.Q?[14].value == 12.02)
        #expect(pair.epipolar_errors.map(\.set) == ["01"] && pair.epipolar_errors[0].error.value == 0.131 && pair.mean_epipolar_error?.value == 0.131)
        let stereo = try #require(read.stereo)
        #expect(stereo.T == FiniteNumber.list([-0.08317, 0.0009, -0.00017]) && stereo.E[5].value == 0.08317 && stereo.F[8].value == 1)
        #expect(stereo.R == FiniteNumber.list([1, 0, 0, 0, 1, 0, 0, 0, 1]))
        #expect(read.rms.value == 0.196 && read.first_rms.value == 0.201 && read.degrees_of_freedom == 2_710 && read.intrinsics_refined)
        #expect(read.outlier_rule == "a set over 3 times the median RMS" && read.corner_rule == "corners over 3 sigma, camera by camera")
        #expect(read.epipolar_error_note == "the mean absolute difference of a corner's rows")
        #expect(read.interval_note == "95% intervals cover the corners' scatter and the spread between sets")
        #expect(read.set_spread.groups == 10 && read.set_spread.degrees_of_freedom == 9 && read.set_spread.left_out == [["01"], ["02", "03"]])
        #expect(read.set_spread.not_measured == nil && read.units_note == "translations and baselines are in metres")
    }

    @Test func aNumberThatIsNotFiniteIsWrittenNullAndReadsBackSo() throws {
        var file = Self.file()
        file.cameras[1].parameters[0].spread_std = FiniteNumber(.infinity)
        file.cameras[1].corner_drop_threshold = FiniteNumber(.nan)
        #expect(file.text.contains("\"corner_drop_threshold\" : null"))
        let read = try RigFile.read(Array(file.text.utf8))
        #expect(read.cameras[1].parameters[0].spread_std.value.isNaN && read.cameras[1].corner_drop_threshold.value.isNaN)
        #expect(read.text == file.text)
    }

    @Test func aFileWrittenBeforeSpreadDegreesOfFreedomReadsWithNone() throws {
        let older = Self.text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("\"spread_dof\"") }
            .joined(separator: "\n")
        #expect(older != Self.text)
        let read = try RigFile.read(Array(older.utf8))
        #expect(read.cameras[1].parameters[0].spread_dof == 0 && read.cameras[1].extrinsics.baseline.spread_dof == 0)
        #expect(read.cameras[1].extrinsics.baseline.value.value == 0.08317)
    }

    /// `text` with its first `of` replaced by `with`.
    static func replacing(_ of: String, with: String) -> String {
        guard let range = text.range(of: of) else { preconditionFailure("\(of) is not in the file") }
        return text.replacingCharacters(in: range, with: with)
    }

    /// The file with `change` made to its JSON object.
    static func changing(_ change: (inout [String: Any]) -> Void) -> String {
        var object = try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        change(&object)
        return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// The file with `change` made to its second camera.
    static func changingCamera(_ change: @escaping (inout [String: Any]) -> Void) -> String {
        changing { object in
            var cameras = object["cameras"] as! [[String: Any]]
            change(&cameras[1])
            object["cameras"] = cameras
        }
    }

    /// A hostile file and the start of its error (the message alone describes the case: some
    /// files are megabytes).
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let message: String
        var testDescription: String { message }
    }

    static let hostile: [Case] = [(String, String)]([
        ("", "rig.json: it is not JSON"),
        ("not json", "rig.json: it is not JSON"),
        ("[1,2,3]", "rig.json: it is not an object"),
        (String(repeating: "[", count: 100_000), "rig.json: it is nested deeper than 64 levels"),
        (String(repeating: " ", count: RigFile.maximumBytes + 1), "rig.json is 16777217 bytes, more than the 16 MiB it may have"),
        (changing { $0["cameras"] = nil }, "rig.json: cameras is missing"),
        (changingCamera { $0["extrinsics"] = nil }, "rig.json: cameras[1].extrinsics is missing"),
        (changingCamera { $0["image_width"] = "640" }, "rig.json: cameras[1].image_width is not a whole number"),
        (changingCamera { $0["image_width"] = 640.5 }, "rig.json: a whole number in it is not one (a fraction, or too large)"),
        (changingCamera { $0["image_width"] = 1e30 }, "rig.json: a whole number in it is not one (a fraction, or too large)"),
        (changingCamera { $0["image_width"] = NSNull() }, "rig.json: cameras[1].image_width is null, not a whole number"),
        (changingCamera { $0["image_height"] = 1 }, "rig.json: cameras[1].image_height is 1; an image side is 2 to 65536 pixels"),
        (changingCamera { $0["image_height"] = -480 }, "rig.json: cameras[1].image_height is -480; an image side is 2 to 65536 pixels"),
        (changingCamera { $0["camera_matrix"] = "K" }, "rig.json: cameras[1].camera_matrix is not a list"),
        (changingCamera { $0["camera_matrix"] = [500, 0, 320, 0, 500, 240, 0, 0] }, "rig.json: cameras[1].camera_matrix has 8 numbers, not 9"),
        (changingCamera { $0["camera_matrix"] = [Int](repeating: 1, count: 1_000_000) },
         "rig.json: cameras[1].camera_matrix has 1000000 numbers, not 9"),
        (changingCamera { $0["camera_matrix"] = [500, 0, 320, 0, NSNull(), 240, 0, 0, 1] as [Any] }, "rig.json: cameras[1].camera_matrix[4] is null, not a number"),
        (changingCamera { $0["camera_matrix"] = [0, 0, 320, 0, 500, 240, 0, 0, 1] },
         "rig.json: cameras[1].camera_matrix has a focal length that is not positive"),
        (changingCamera { $0["camera_matrix"] = [500, 0, 320, 0, 500, 240, 0, 0, "1"] as [Any] }, "rig.json: cameras[1].camera_matrix[8] is not a number"),
        (replacing("536.74,", with: "1e999,"), "rig.json: cameras[1].camera_matrix[0]: a number too large for a Double"),
        (changingCamera { $0["distortion_coefficients"] = [Double](repeating: 0, count: 15) },
         "rig.json: cameras[1].distortion_coefficients has 15 numbers; a lens model has at most 14"),
        (changingCamera { $0["parameters"] = [Any](repeating: ($0["parameters"] as! [Any])[0], count: 19) },
         "rig.json: cameras[1].parameters has 19 parameters; a camera has at most 18"),
        (changingCamera { camera in
            var parameters = camera["parameters"] as! [[String: Any]]
            parameters[0]["value"] = nil
            camera["parameters"] = parameters
        }, "rig.json: cameras[1].parameters[0].value is missing"),
        (changingCamera { camera in
            var parameters = camera["parameters"] as! [[String: Any]]
            parameters[0]["name"] = nil
            camera["parameters"] = parameters
        }, "rig.json: cameras[1].parameters[0].name is missing or empty"),
        (changingCamera { camera in
            var parameters = camera["parameters"] as! [[String: Any]]
            parameters[1]["std"] = -0.5
            camera["parameters"] = parameters
        }, "rig.json: cameras[1].parameters[1].std is -0.5, below 0"),
        (changingCamera { camera in
            var parameters = camera["parameters"] as! [[String: Any]]
            parameters[1]["value"] = NSNull()
            camera["parameters"] = parameters
        }, "rig.json: cameras[1].parameters[1].value is null: a solved value is a number"),
        (changingCamera { camera in
            var parameters = camera["parameters"] as! [[String: Any]]
            parameters[2]["ci95"] = [1, 2, 3]
            camera["parameters"] = parameters
        }, "rig.json: cameras[1].parameters[2].ci95 has 3 numbers, not 2"),
        (changingCamera { camera in
            var parameters = camera["parameters"] as! [[String: Any]]
            parameters[3]["spread_dof"] = -9
            camera["parameters"] = parameters
        }, "rig.json: cameras[1].parameters[3].spread_dof is -9, below 0"),
        (changingCamera { $0["covariance"] = [[1, 0], [0, 1]] }, "rig.json: cameras[1].covariance has 2 rows, not 4"),
        (changingCamera { $0["covariance"] = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1], [0, 0, 0, 1]] },
         "rig.json: cameras[1].covariance[2] has 3 numbers, not 4"),
        (changingCamera { $0["rms"] = -1 }, "rig.json: cameras[1].rms is -1.0, below 0"),
        (changingCamera { $0["corners_dropped"] = [["set": "03", "ids": [4, -17]]] as [[String: Any]] }, "rig.json: cameras[1].corners_dropped[0].ids holds -17, not a corner's id"),
        (changingCamera { $0["own_views_used"] = -13 }, "rig.json: cameras[1].own_views_used is -13, below 0"),
        (changingCamera { camera in
            var extrinsics = camera["extrinsics"] as! [String: Any]
            extrinsics["translation"] = [0.08, 0]
            camera["extrinsics"] = extrinsics
        }, "rig.json: cameras[1].extrinsics.translation has 2 numbers, not 3"),
        (changingCamera { camera in
            var extrinsics = camera["extrinsics"] as! [String: Any]
            extrinsics["rotation_vector_degrees"] = [] as [Any]
            camera["extrinsics"] = extrinsics
        }, "rig.json: cameras[1].extrinsics.rotation_vector_degrees has 0 values, not 3"),
        (changingCamera { camera in
            var extrinsics = camera["extrinsics"] as! [String: Any]
            extrinsics["covariance"] = [] as [Any]
            camera["extrinsics"] = extrinsics
        }, "rig.json: cameras[1].extrinsics.covariance has 0 rows, not 6"),
        (changingCamera { camera in
            var extrinsics = camera["extrinsics"] as! [String: Any]
            var baseline = extrinsics["baseline"] as! [String: Any]
            baseline["noise_std"] = true
            extrinsics["baseline"] = baseline
            camera["extrinsics"] = extrinsics
        }, "rig.json: cameras[1].extrinsics.baseline.noise_std is not a number"),
        (changing { object in object["cameras"] = Array((object["cameras"] as! [Any]).prefix(1)) }, "rig.json: cameras has 1 cameras; a rig has 2 to 64"),
        (changingCamera { $0["name"] = "left" }, "rig.json: cameras[1].name is given twice"),
        (changingCamera { $0["name"] = "" }, "rig.json: cameras[1].name is empty"),
        (changing { object in
            var sets = object["sets"] as! [[String: Any]]
            sets[1]["cameras"] = ["left", "../right"]
            object["sets"] = sets
        }, #"rig.json: sets[1].cameras names camera "../right", which is not one of the rig's"#),
        (changing { $0["placement"] = [["camera": "middle", "from": "left", "shared_sets": 3]] as [[String: Any]] },
         #"rig.json: placement[0].camera names camera "middle", which is not one of the rig's"#),
        (changing { $0["placement"] = [["camera": "right", "from": "left", "shared_sets": -3]] as [[String: Any]] }, "rig.json: placement[0].shared_sets is -3, below 0"),
        (changing { object in
            var pairs = object["pairs"] as! [[String: Any]]
            pairs[0]["Q"] = [1, 2, 3]
            object["pairs"] = pairs
        }, "rig.json: pairs[0].Q has 3 numbers, not 16"),
        (changing { object in
            var pairs = object["pairs"] as! [[String: Any]]
            pairs[0]["second"] = "rigth"
            object["pairs"] = pairs
        }, #"rig.json: pairs[0].second names camera "rigth", which is not one of the rig's"#),
        (changing { object in
            var stereo = object["stereo"] as! [String: Any]
            stereo["F"] = [1, 2]
            object["stereo"] = stereo
        }, "rig.json: stereo.F has 2 numbers, not 9"),
        (changing { $0["rms"] = NSNull() }, "rig.json: rms is null: the joint solve's RMS is a number"),
        (changing { $0["degrees_of_freedom"] = -1 }, "rig.json: degrees_of_freedom is -1, below 0"),
        (changing { $0["set_spread"] = ["groups": -10] }, "rig.json: set_spread.groups is -10, below 0"),
        (changing { $0["intrinsics_refined"] = "yes" }, "rig.json: intrinsics_refined is not true or false"),
    ]).map { Case(text: $0.0, message: $0.1) }

    @Test(arguments: hostile)
    func aHostileFileSaysWhatIsWrong(_ hostile: Case) {
        let error = #expect(throws: RigFileError.self) { try RigFile.read(Array(hostile.text.utf8)) }
        #expect(error?.description.hasPrefix(hostile.message) == true, "\(error?.description ?? "no error")")
    }
}

/// rig.json as written before `RigFile` owned it (Tests/Fixtures/formats-before): read, and written
/// again byte for byte but for the `spread_dof` each value now has; and the fuzzer's seeds, which
/// must be rigs for it to explore beyond the refusals.
@Suite struct RigFileBeforeTests {
    @Test(arguments: ["rig.json", "rig-three-cameras.json"])
    func aFileWrittenBeforeIsWrittenAgainWithSpreadDegreesOfFreedomAlone(_ name: String) throws {
        let before = try Fixtures.bytes(Fixtures.before + "/" + name)
        let read = try RigFile.read(Array(before))
        #expect(read.cameras.count == (name == "rig.json" ? 2 : 3) && (read.stereo != nil) == (name == "rig.json"))
        #expect(read.cameras.allSatisfy { $0.parameters.count == 9 && $0.parameters.allSatisfy { $0.spread_dof == 0 } })
        let lines = read.text.split(separator: "\n", omittingEmptySubsequences: false)
        let added = lines.filter { $0.contains("\"spread_dof\"") }
        #expect(added.count == (name == "rig.json" ? 34 : 51) && added.allSatisfy { $0.hasSuffix("\"spread_dof\" : 0,") })
        #expect(Data(lines.filter { !$0.contains("\"spread_dof\"") }.joined(separator: "\n").utf8) == before)
    }

    @Test func theFuzzersSeedsAreRigs() throws {
        let folder = Fixtures.packageRoot + "/Fuzz/seeds/rig_file"
        let names = try Fixtures.names(in: folder, endingIn: ".json")
        #expect(names == ["small.json", "stereo-pair.json", "three-cameras.json"])
        for name in names {
            let read = try RigFile.read(Array(try Fixtures.bytes(folder + "/" + name)))
            #expect(read.cameras.count >= 2, "\(name)")
        }
    }
}
