import MarkerDetection

/// The numbers a camera read from a file may hold before `compare` makes anything of it: any
/// calibration of a real camera is far inside them, and a number outside (not finite, a focal
/// length of nothing or of light-years, a principal point far off the image, an image of no
/// pixels or of millions across) is refused naming the field, instead of turning into
/// "an unknown amount" of difference.
enum CameraLimits {
    /// Pixels across and down an image (as the image sizes other tools' files give are read).
    static let imageSides = 2...100_000
    /// Focal lengths, in pixels.
    static let focalLengths = 1.0...1e7
    /// The largest magnitude of a distortion coefficient: those of real lenses are a few units,
    /// the rational model's up to some hundreds.
    static let largestDistortion = 1e6

    /// What is wrong with `camera`'s numbers, as `its focal length fx is -800.0: ...`, or `nil`.
    static func problem(_ camera: Camera) -> String? {
        let size = camera.imageSize
        for (name, side) in [("width", size.width), ("height", size.height)] where !imageSides.contains(side) {
            return "its image \(name) is \(side) pixels: an image is from \(imageSides.lowerBound) to \(imageSides.upperBound) pixels each way"
        }
        for (name, value) in [("fx", camera.fx), ("fy", camera.fy)] where !(value.isFinite && focalLengths.contains(value)) {
            return "its focal length \(name) is \(value) pixels: a camera's is from \(Int(focalLengths.lowerBound)) "
                + "to \(Int(focalLengths.upperBound)) pixels"
        }
        for (name, value, side) in [("cx", camera.cx, size.width), ("cy", camera.cy, size.height)] {
            let reach = Double(side)
            guard value.isFinite, (-reach...2 * reach).contains(value) else {
                return "its principal point \(name) is \(value): it lies on the image, or at most an image's "
                    + "\(name == "cx" ? "width" : "height") (\(side) pixels) off it"
            }
        }
        let names = camera.model.distortionNames
        for (index, value) in camera.distortion.enumerated() where !(value.isFinite && abs(value) <= largestDistortion) {
            let name = index < names.count ? names[index] : "coefficient \(index + 1)"
            return "its distortion coefficient \(name) is \(value): a lens's are finite and at most \(Int(largestDistortion)) in size"
        }
        return nil
    }
}
