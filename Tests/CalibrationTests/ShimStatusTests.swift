import Calibration
import MarkerDetection
import Pixels
import Testing

/// What the calibration shim reports reaches the caller as the error its status names, with the
/// shim's message.
@Suite struct ShimStatusTests {
    static let camera = Camera(
        model: .pinhole, imageSize: ImageSize(width: 640, height: 480), fx: 500, fy: 500, cx: 320, cy: 240)

    @Test func aCameraWithTheWrongNumberOfCoefficientsIsInvalidInput() {
        var camera = Self.camera
        camera.distortion = [0.1, 0.01, 0]
        #expect(throws: CalibrationError.invalidInput("model 0 has 3 distortion coefficients, not 5")) {
            try camera.project([ObjectPoint(x: 0, y: 0, z: 1)])
        }
        #expect(throws: CalibrationError.invalidInput("model 0 has 3 distortion coefficients, not 5")) {
            try camera.normalized([ImagePoint(x: 320, y: 240)])
        }
    }

    @Test func undistortingRGBPixelsIsInvalidInput() throws {
        let image = try PixelBuffer(width: 8, height: 8, format: .rgb24)
        #expect(throws: CalibrationError.invalidInput("undistortion reads GRAY8 or BGR24 pixels, not rgb24")) {
            try Self.camera.undistort(image)
        }
    }

    @Test func invalidInputSaysOpenCVCannotUseIt() {
        #expect(CalibrationError.invalidInput("no views").description == "OpenCV cannot use this input: no views")
        #expect(CalibrationError.openCV("OpenCV error in f: e").description == "the solve failed: OpenCV error in f: e")
    }

    @Test func aCameraThatProjectsIsNoError() throws {
        let projected = try Self.camera.project([ObjectPoint(x: 0, y: 0, z: 1), ObjectPoint(x: 0.1, y: -0.2, z: 2)])
        #expect(projected == [ImagePoint(x: 320, y: 240), ImagePoint(x: 345, y: 190)])
    }
}
