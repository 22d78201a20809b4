// libFuzzer harness over calibration.json's reader (compiled with the FileFormats module by
// Fuzz/build). Whatever the bytes, the reader returns or throws, and never recurses deeper than
// JSONNesting allows; a camera it accepts is one (image of 2 pixels or more each way, 9 finite
// numbers with positive focal lengths, finite distortion), and written back as a calibration.json
// it reads to the same camera.

import FileFormats
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCalibrationFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let camera = try? CalibrationFile.read(bytes) else { return 0 }
    let k = camera.camera_matrix
    precondition(k.count == 9 && k[0] > 0 && k[4] > 0, "accepted camera matrix \(k)")
    precondition((k + camera.distortion_coefficients).allSatisfy(\.isFinite), "accepted numbers that are not finite")
    precondition(camera.image_width > 1 && camera.image_height > 1, "accepted size \(camera.image_width)x\(camera.image_height)")
    var file = CalibrationFile()
    file.image_width = camera.image_width
    file.image_height = camera.image_height
    file.distortion_model = camera.distortion_model
    file.camera_matrix = FiniteNumber.list(k)
    file.distortion_coefficients = FiniteNumber.list(camera.distortion_coefficients)
    file.projection_uncertainty = camera.projection_uncertainty
    file.verdict.sentence = camera.verdict?.sentence ?? ""
    do {
        let again = try CalibrationFile.read(Array(file.text.utf8))
        precondition(again.camera_matrix == k && again.distortion_coefficients == camera.distortion_coefficients
            && again.image_width == camera.image_width && again.image_height == camera.image_height
            && again.distortion_model == camera.distortion_model, "a camera read back differs from the one written")
    } catch {
        preconditionFailure("a camera it read, written back, does not read: \(error)")
    }
    return 0
}
