/// How libapriltag 3 looks for tags; the defaults are libapriltag's own, but for the decimation of
/// small images.
public struct AprilTagOptions: Sendable, Hashable {
    /// Quads are looked for in an image shrunk by this factor (libapriltag's `quad_decimate`, 1 to
    /// 16): faster, and blind to smaller tags. Ids and corners are always read at full size.
    ///
    /// `nil` (the default) chooses it per image: libapriltag's ``defaultDecimate`` once the image's
    /// shorter side is at least ``decimateFromSide`` pixels, else 1. Halving an image smaller than
    /// that loses its smaller tags (3 of the 12 on the AprilTag 3 library's `cubes.jpg`, 799x533),
    /// and at full size such an image still takes only tens of milliseconds.
    public var decimate: Double?
    /// Gaussian blur (sigma, pixels) of the image quads are looked for in (`quad_sigma`, -10 to 10;
    /// negative sharpens). Helps with noisy images.
    public var sigma: Double
    /// Whether quad edges are fitted again on the full-size image (`refine_edges`).
    public var refineEdges: Bool

    /// libapriltag's `quad_decimate` default, used from ``decimateFromSide`` up when none is set.
    public static let defaultDecimate = 2.0
    /// The shorter side, in pixels, from which an image is decimated when ``decimate`` is `nil`.
    public static let decimateFromSide = 720

    /// libapriltag's `quad_sigma` default.
    public static let defaultSigma = 0.0
    /// The range ``decimate`` may take.
    public static let decimateRange = 1.0...16.0
    /// The range ``sigma`` may take.
    public static let sigmaRange = -10.0...10.0

    /// Makes options; each defaults to libapriltag's own default, the decimation to one chosen per image.
    public init(decimate: Double? = nil, sigma: Double = defaultSigma, refineEdges: Bool = true) {
        self.decimate = decimate
        self.sigma = sigma
        self.refineEdges = refineEdges
    }

    /// The options that differ from the defaults, as pattern options (`decimate=1`, `refine=0`).
    var patternOptions: [String?] {
        [
            decimate.map { "decimate=\($0)" },
            sigma == Self.defaultSigma ? nil : "sigma=\(sigma)",
            refineEdges ? nil : "refine=0",
        ]
    }
}
