// The only file that calls into CCalibrationShim. It holds every unsafe pointer, checks every status
// and frees every solution it is given.

import CCalibrationShim
import CShimCore
import MarkerDetection
import Pixels
import ShimCore

/// What one call of `mcal_calibrate` found.
struct ShimSolution {
    var camera: Camera
    var rms: Double
    /// fx, fy, cx, cy, then each distortion coefficient.
    var standardDeviations: [Double]
    var viewRMS: [Double]
    /// Rodrigues vector and translation of each view.
    var rotations: [[Double]]
    var translations: [[Double]]
    /// Per view, where each point projects.
    var projected: [[ImagePoint]]
}

enum CalibrationShim {
    /// Calls `body` with an error record and throws, by the status, when it returns a failure.
    private static func check(_ body: (UnsafeMutablePointer<shim_error>) -> shim_status) throws(CalibrationError) {
        do throws(ShimFailure) {
            try ShimFailure.check(body)
        } catch {
            throw CalibrationError(error)
        }
    }

    private static func cModel(_ model: CameraModel) -> mcal_model {
        switch model {
        case .pinhole: MCAL_MODEL_PINHOLE
        case .pinholeRadtan: MCAL_MODEL_PINHOLE_RADTAN
        case .rational: MCAL_MODEL_RATIONAL
        case .fisheye: MCAL_MODEL_FISHEYE
        }
    }

    private static func cCamera(_ camera: Camera) -> mcal_camera {
        var result = mcal_camera()
        result.model = cModel(camera.model)
        withUnsafeMutableBytes(of: &result.camera_matrix) { raw in
            for (index, value) in camera.cameraMatrix.enumerated() { raw.storeBytes(of: value, toByteOffset: index * 8, as: Double.self) }
        }
        result.distortion_count = Int32(camera.distortion.count)
        withUnsafeMutableBytes(of: &result.distortion) { raw in
            for (index, value) in camera.distortion.prefix(Int(MCAL_MAX_DISTORTION)).enumerated() {
                raw.storeBytes(of: value, toByteOffset: index * 8, as: Double.self)
            }
        }
        return result
    }

    private static func doubles<T>(_ tuple: T, count: Int) -> [Double] {
        withUnsafeBytes(of: tuple) { raw in (0..<count).map { raw.load(fromByteOffset: $0 * 8, as: Double.self) } }
    }

    /// Solves `views` for `model` (mcal_calibrate), or with `closedForm` gives the closed-form
    /// start of a pinhole model's solve (mcal_initialize: Zhang's method, no distortion, standard
    /// deviations 0). With `deviations` false (a solve that only starts a refinement), OpenCV's
    /// standard deviations are not computed either (all 0).
    static func calibrate(
        _ views: [CalibrationView], model: CameraModel, imageSize: ImageSize, closedForm: Bool = false,
        deviations: Bool = true
    ) throws(CalibrationError) -> ShimSolution {
        let counts = views.map { Int32($0.points.count) }
        let objects = views.flatMap { $0.points.flatMap { [$0.object.x, $0.object.y, $0.object.z] } }
        let images = views.flatMap { $0.points.flatMap { [$0.image.x, $0.image.y] } }
        var handle: OpaquePointer?
        try check { error in
            counts.withUnsafeBufferPointer { counts in
                objects.withUnsafeBufferPointer { objects in
                    images.withUnsafeBufferPointer { images in
                        var problem = mcal_problem(
                            model: cModel(model), image_width: Int32(clamping: imageSize.width),
                            image_height: Int32(clamping: imageSize.height), view_count: views.count,
                            point_counts: counts.baseAddress, object_points: objects.baseAddress,
                            image_points: images.baseAddress, without_deviations: deviations ? 0 : 1)
                        return closedForm ? mcal_initialize(&problem, &handle, error) : mcal_calibrate(&problem, &handle, error)
                    }
                }
            }
        }
        defer { mcal_solution_free(handle) }
        var view = mcal_solution_view()
        try check { mcal_solution_view_get(handle, &view, $0) }
        let matrix = doubles(view.camera.camera_matrix, count: 9)
        let distortionCount = Int(view.camera.distortion_count)
        let camera = Camera(
            model: model, imageSize: imageSize, fx: matrix[0], fy: matrix[4], cx: matrix[2], cy: matrix[5],
            distortion: doubles(view.camera.distortion, count: distortionCount))
        let viewCount = view.view_count
        func triples(_ pointer: UnsafePointer<Double>?) -> [[Double]] {
            guard let pointer else { return [] }
            return (0..<viewCount).map { index in (0..<3).map { pointer[index * 3 + $0] } }
        }
        var projected: [[ImagePoint]] = []
        var offset = 0
        for count in counts {
            projected.append((0..<Int(count)).map { index in
                ImagePoint(x: view.projected_points[2 * (offset + index)], y: view.projected_points[2 * (offset + index) + 1])
            })
            offset += Int(count)
        }
        return ShimSolution(
            camera: camera, rms: view.rms,
            standardDeviations: doubles(view.intrinsic_std, count: 4 + distortionCount),
            viewRMS: (0..<viewCount).map { view.view_rms[$0] },
            rotations: triples(view.rotations), translations: triples(view.translations), projected: projected)
    }

    /// Projects camera-frame points (mcal_points_project).
    static func project(_ points: [ObjectPoint], through camera: Camera) throws(CalibrationError) -> [ImagePoint] {
        var cameraModel = cCamera(camera)
        let input = points.flatMap { [$0.x, $0.y, $0.z] }
        var output = [Double](repeating: 0, count: points.count * 2)
        try check { error in mcal_points_project(&cameraModel, input, points.count, &output, error) }
        return (0..<points.count).map { ImagePoint(x: output[2 * $0], y: output[2 * $0 + 1]) }
    }

    /// Undistorts image points to normalized coordinates (mcal_points_undistort).
    static func normalize(_ points: [ImagePoint], through camera: Camera) throws(CalibrationError) -> [ImagePoint] {
        var cameraModel = cCamera(camera)
        let input = points.flatMap { [$0.x, $0.y] }
        var output = [Double](repeating: 0, count: points.count * 2)
        try check { error in mcal_points_undistort(&cameraModel, input, points.count, &output, error) }
        return (0..<points.count).map { ImagePoint(x: output[2 * $0], y: output[2 * $0 + 1]) }
    }

    /// The picture `camera` would have taken without distortion (mcal_image_undistort).
    static func undistort(_ image: PixelBuffer, through camera: Camera) throws(CalibrationError) -> PixelBuffer {
        guard image.format == .gray8 || image.format == .bgr24 else {
            throw .invalidInput("undistortion reads GRAY8 or BGR24 pixels, not \(image.format)")
        }
        var cameraModel = cCamera(camera)
        var failure: CalibrationError?
        let result: PixelBuffer
        do {
            result = try PixelBuffer(width: image.width, height: image.height, format: image.format) { target in
                var output = shim_pixels(
                    data: target.baseAddress, width: Int32(image.width), height: Int32(image.height),
                    row_stride: image.width * image.format.bytesPerPixel, format: image.format.shimFormat)
                do throws(ShimFailure) {
                    try image.withShimPixels(area: .SHIM_AREA_CALIBRATION) { (input) throws(ShimFailure) in
                        try ShimFailure.check { mcal_image_undistort(input, &cameraModel, &output, $0) }
                    }
                } catch {
                    failure = CalibrationError(error)
                }
            }
        } catch {
            throw .openCV("\(error)")
        }
        if let failure { throw failure }
        return result
    }

    /// A pair's rectification (mcal_stereo_rectify): `rotation` (row-major 3x3) and `translation`
    /// take the first camera's frame into the second's.
    static func stereoRectify(
        _ first: Camera, _ second: Camera, rotation: [Double], translation: [Double]
    ) throws(CalibrationError) -> StereoRectification {
        var one = cCamera(first), two = cCamera(second)
        var r1 = [Double](repeating: 0, count: 9), r2 = r1
        var p1 = [Double](repeating: 0, count: 12), p2 = p1
        var q = [Double](repeating: 0, count: 16)
        try check { error in
            mcal_stereo_rectify(
                &one, &two, Int32(first.imageSize.width), Int32(first.imageSize.height), rotation, translation, &r1, &r2,
                &p1, &p2, &q, error)
        }
        return StereoRectification(r1: r1, r2: r2, p1: p1, p2: p2, q: q)
    }

    /// Where `points` of `camera` fall in its rectified picture (mcal_points_rectify).
    static func rectify(
        _ points: [ImagePoint], through camera: Camera, rectification: [Double], projection: [Double]
    ) throws(CalibrationError) -> [ImagePoint] {
        var cameraModel = cCamera(camera)
        let input = points.flatMap { [$0.x, $0.y] }
        var output = [Double](repeating: 0, count: points.count * 2)
        try check { error in
            mcal_points_rectify(&cameraModel, rectification, projection, input, points.count, &output, error)
        }
        return (0..<points.count).map { ImagePoint(x: output[2 * $0], y: output[2 * $0 + 1]) }
    }

    /// `camera`'s picture rectified (mcal_image_rectify), of the camera's size.
    static func rectify(
        _ image: PixelBuffer, through camera: Camera, rectification: [Double], projection: [Double]
    ) throws(CalibrationError) -> PixelBuffer {
        guard image.format == .gray8 || image.format == .bgr24 else {
            throw .invalidInput("rectification reads GRAY8 or BGR24 pixels, not \(image.format)")
        }
        var cameraModel = cCamera(camera)
        var failure: CalibrationError?
        let width = camera.imageSize.width, height = camera.imageSize.height
        let result: PixelBuffer
        do {
            result = try PixelBuffer(width: width, height: height, format: image.format) { target in
                var output = shim_pixels(
                    data: target.baseAddress, width: Int32(width), height: Int32(height),
                    row_stride: width * image.format.bytesPerPixel, format: image.format.shimFormat)
                do throws(ShimFailure) {
                    try image.withShimPixels(area: .SHIM_AREA_CALIBRATION) { (input) throws(ShimFailure) in
                        try ShimFailure.check {
                            mcal_image_rectify(input, &cameraModel, rectification, projection, &output, $0)
                        }
                    }
                } catch {
                    failure = CalibrationError(error)
                }
            }
        } catch {
            throw .openCV("\(error)")
        }
        if let failure { throw failure }
        return result
    }

    /// Draws `shapes` on a `width` x `height` BGR24 canvas filled with `background`.
    static func draw(_ shapes: [Canvas.Shape], width: Int, height: Int, background: Canvas.Color) throws(CalibrationError) -> PixelBuffer {
        var failure: CalibrationError?
        let result: PixelBuffer
        do {
            result = try PixelBuffer(width: width, height: height, format: .bgr24) { target in
                for index in stride(from: 0, to: target.count, by: 3) {
                    target[index] = background.blue
                    target[index + 1] = background.green
                    target[index + 2] = background.red
                }
                var canvas = shim_pixels(
                    data: target.baseAddress, width: Int32(width), height: Int32(height), row_stride: width * 3,
                    format: .SHIM_PIXEL_FORMAT_BGR24)
                do throws(CalibrationError) {
                    for shape in shapes {
                        try check { error in draw(shape, on: &canvas, error) }
                    }
                } catch {
                    failure = error
                }
            }
        } catch {
            throw .openCV("\(error)")
        }
        if let failure { throw failure }
        return result
    }

    /// An OpenCV FileStorage document (YAML, XML or JSON) as JSON text (mcal_storage_to_json).
    ///
    /// - Throws: ``CalibrationError/invalidInput(_:)`` for a document OpenCV cannot read.
    static func storageJSON(_ bytes: [UInt8]) throws(CalibrationError) -> String {
        var text: OpaquePointer?
        defer { mcal_text_free(text) }
        try bytes.withUnsafeBufferPointer { (buffer) throws(CalibrationError) in
            try buffer.withMemoryRebound(to: CChar.self) { (characters) throws(CalibrationError) in
                try check { mcal_storage_to_json(characters.baseAddress, characters.count, &text, $0) }
            }
        }
        var data: UnsafePointer<CChar>?
        var count = 0
        try check { mcal_text_get(text, &data, &count, $0) }
        guard let data else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
    }

    private static func draw(_ shape: Canvas.Shape, on canvas: inout shim_pixels, _ error: UnsafeMutablePointer<shim_error>) -> shim_status {
        func c(_ color: Canvas.Color) -> mcal_color { mcal_color(blue: color.blue, green: color.green, red: color.red) }
        switch shape {
        case .line(let from, let to, let color, let thickness, let arrow):
            return mcal_draw_line(&canvas, from.x, from.y, to.x, to.y, c(color), Int32(thickness), arrow ? 1 : 0, error)
        case .rectangle(let from, let to, let color, let thickness):
            return mcal_draw_rectangle(&canvas, from.x, from.y, to.x, to.y, c(color), Int32(thickness), error)
        case .circle(let centre, let radius, let color, let thickness):
            return mcal_draw_circle(&canvas, centre.x, centre.y, radius, c(color), Int32(thickness), error)
        case .text(let text, let at, let scale, let color, let thickness):
            return mcal_draw_text(&canvas, text, at.x, at.y, scale, c(color), Int32(thickness), error)
        }
    }
}

extension CalibrationError {
    /// The error for a failed calibration shim call, by its status: OpenCV's own failures stay
    /// ``openCV(_:)``, what the shim refused is ``invalidInput(_:)``; statuses the calibration shim
    /// never returns are internal errors.
    init(_ failure: ShimFailure) {
        switch failure.status {
        case .SHIM_STATUS_LIBRARY_ERROR: self = .openCV(failure.message)
        case .SHIM_STATUS_INVALID_ARGUMENT: self = .invalidInput(failure.message)
        case .SHIM_STATUS_OUT_OF_MEMORY: self = .outOfMemory
        case .SHIM_STATUS_OK, .SHIM_STATUS_INTERNAL_ERROR, .SHIM_STATUS_IO, .SHIM_STATUS_EMPTY_INPUT,
            .SHIM_STATUS_UNRECOGNIZED_FORMAT, .SHIM_STATUS_TRUNCATED, .SHIM_STATUS_TOO_MANY_PIXELS,
            .SHIM_STATUS_DECODE_FAILED, .SHIM_STATUS_ENCODE_FAILED, .SHIM_STATUS_NOT_REGULAR_FILE,
            .SHIM_STATUS_FILE_TOO_LARGE, .SHIM_STATUS_INVALID_DICTIONARY, .SHIM_STATUS_IMAGE_TOO_SMALL,
            .SHIM_STATUS_NO_DISPLAY:
            self = .internalError(failure.message)
        }
    }
}
