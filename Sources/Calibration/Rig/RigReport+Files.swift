public import FileFormats
import Foundation
import MarkerDetection
import Pixels

extension RigReport {
    /// The rig's own files, in the order ``write(into:)`` writes them, before each camera's
    /// (camchain.yaml only when Kalibr holds the rig exactly: ``KalibrCamchain``).
    public static let rigFileNames = ["rig.yaml", "camchain.yaml", "rig.json"]

    /// The folder of a camera's own calibration, beside the rig's files: `NAME-alone/` (its name
    /// says it is not the joint solve's).
    public static func ownSolveFolder(_ name: String) -> String { name + "-alone" }

    /// Names a camera of a rig may not have: its subfolder would meet the rig's own files.
    public static let reservedNames: Set<String> = ["rig.yaml", "camchain.yaml", "rig.json", "camera_info", "rectified", "mrcal"]

    /// Every file ``write(into:)`` writes: the rig's files (camchain.yaml when Kalibr holds the rig),
    /// `camera_info/NAME.yaml` per camera, `mrcal/NAME.cameramodel` per camera mrcal holds, then
    /// each camera's own calibration files in `NAME-alone/` (`NAME-alone/calibration.yaml`, ...).
    public var fileNames: [String] {
        Self.rigFileNames.filter { $0 != "camchain.yaml" || camchain.yaml != nil }
            + result.cameras.map { "camera_info/\($0.name).yaml" }
            + result.cameras.indices.filter { mrcalModel($0).text != nil }.map { "mrcal/\(result.cameras[$0].name).cameramodel" }
            + result.cameras.flatMap { camera in CalibrationReport.ownSolveFileNames.map { "\(Self.ownSolveFolder(camera.name))/\($0)" } }
    }

    /// Writes the rig's files into `output` (they appear at its ``SafeOutput/Folder/commit()``):
    /// rig.yaml, camchain.yaml (when Kalibr holds the rig), rig.json, ROS camera_info and mrcal's
    /// model per camera, and each camera's own files in `NAME-alone/` (``fileNames``).
    ///
    /// - Throws: ``CalibrationError/nonFiniteSolve(_:)`` before anything is written when a value is
    ///   not a finite number; what ``CalibrationReport/write(into:folder:)`` throws.
    public func write(into output: SafeOutput.Folder) throws(CalibrationError) {
        if let value = RigCalibration.firstNonFiniteValue(result) { throw .nonFiniteSolve(value) }
        try CalibrationReport.write(Array(rigYAML.utf8), to: "rig.yaml", into: output)
        if let camchain = camchain.yaml { try CalibrationReport.write(Array(camchain.utf8), to: "camchain.yaml", into: output) }
        try CalibrationReport.write(Array(json.utf8), to: "rig.json", into: output)
        for index in result.cameras.indices {
            try CalibrationReport.write(Array(cameraInfoYAML(index).utf8), to: "camera_info/\(result.cameras[index].name).yaml", into: output)
        }
        for index in result.cameras.indices {
            guard let text = mrcalModel(index).text else { continue }
            try CalibrationReport.write(Array(text.utf8), to: "mrcal/\(result.cameras[index].name).cameramodel", into: output)
        }
        for (camera, report) in zip(result.cameras, cameraReports) {
            try report.write(into: output, folder: Self.ownSolveFolder(camera.name), ownSolveOfRig: true)
        }
    }

    /// The names of the rectified pictures ``writeRectified(_:into:)`` writes: for two cameras
    /// `rectified/SET.png` per set both saw; with more, `rectified/SET-NAME.png` for the first camera
    /// beside each other one.
    public var rectifiedNames: [String] {
        result.pairs.flatMap { pair -> [String] in
            guard pair.rectification != nil else { return [] }
            return pair.epipolarErrors.keys.sorted().map { set in
                result.cameras.count == 2 ? "rectified/\(set).png" : "rectified/\(set)-\(result.cameras[pair.second].name).png"
            }
        }
    }

    /// Writes, for every pair of ``RigCalibrationResult/pairs`` and every set both saw, the two
    /// pictures rectified side by side with a horizontal line every 32 rows, into `rectified/`
    /// (``rectifiedNames``): a point lies on the same row in both when the rig is right.
    ///
    /// - Parameters:
    ///   - pictures: Each camera's pictures, in the rig's camera order.
    ///   - output: The folder.
    /// - Throws: ``CalibrationError/unreadableInput(path:reason:)`` for a picture that cannot be
    ///   read, and what ``SafeOutput/Folder/write(_:to:)`` throws.
    public func writeRectified(_ pictures: [PictureSet], into output: SafeOutput.Folder) throws(CalibrationError) {
        for pair in result.pairs {
            guard let rectification = pair.rectification else { continue }
            let first = result.cameras[pair.first], second = result.cameras[pair.second]
            for set in pair.epipolarErrors.keys.sorted() {
                guard let left = Self.picture(of: set, in: first.single), let right = Self.picture(of: set, in: second.single) else { continue }
                let one = try CalibrationShim.rectify(
                    try pictures[pair.first].image(of: left), through: first.camera, rectification: rectification.r1,
                    projection: rectification.p1)
                let two = try CalibrationShim.rectify(
                    try pictures[pair.second].image(of: right), through: second.camera, rectification: rectification.r2,
                    projection: rectification.p2)
                let name = result.cameras.count == 2 ? "rectified/\(set).png" : "rectified/\(set)-\(second.name).png"
                try CalibrationReport.write(try CalibrationReport.png(try Self.sideBySide(one, two), output: output), to: name, into: output)
            }
        }
    }

    /// The picture name of `set` among the views of a camera's own solve.
    private static func picture(of set: String, in single: CalibrationResult) -> String? {
        single.run.views.first { RigCameraViews.set(of: $0.view.name) == set }?.view.name
    }

    /// `left` and `right` side by side in BGR, with a green line every 32 rows.
    static func sideBySide(_ left: PixelBuffer, _ right: PixelBuffer) throws(CalibrationError) -> PixelBuffer {
        let width = left.width + right.width, height = max(left.height, right.height)
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for (image, start) in [(left, 0), (right, left.width)] {
            for y in 0..<image.height {
                let row = image.row(y)
                for x in 0..<image.width {
                    let target = 3 * (y * width + start + x)
                    if image.format == .gray8 {
                        bytes[target] = row[x]
                        bytes[target + 1] = row[x]
                        bytes[target + 2] = row[x]
                    } else {
                        bytes[target] = row[3 * x]
                        bytes[target + 1] = row[3 * x + 1]
                        bytes[target + 2] = row[3 * x + 2]
                    }
                }
            }
        }
        for y in stride(from: 16, to: height, by: 32) {
            for x in 0..<width {
                let target = 3 * (y * width + x)
                bytes[target] = 0
                bytes[target + 1] = 255
                bytes[target + 2] = 0
            }
        }
        do {
            return try PixelBuffer(copying: bytes, width: width, height: height, format: .bgr24)
        } catch {
            throw .openCV("the rectified pictures could not be joined: \(error)")
        }
    }
}
