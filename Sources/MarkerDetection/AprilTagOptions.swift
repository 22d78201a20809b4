/// How libapriltag 3 looks for tags; the defaults are libapriltag's own.
public struct AprilTagOptions: Sendable, Hashable {
    /// Quads are looked for in an image shrunk by this factor (libapriltag's `quad_decimate`, 1 to
    /// 16): faster, and blind to smaller tags. Ids and corners are always read at full size.
    public var decimate: Double
    /// Gaussian blur (sigma, pixels) of the image quads are looked for in (`quad_sigma`, -10 to 10;
    /// negative sharpens). Helps with noisy images.
    public var sigma: Double
    /// Whether quad edges are fitted again on the full-size image (`refine_edges`).
    public var refineEdges: Bool

    /// libapriltag's `quad_decimate` default.
    public static let defaultDecimate = 2.0
    /// libapriltag's `quad_sigma` default.
    public static let defaultSigma = 0.0
    /// The range ``decimate`` may take.
    public static let decimateRange = 1.0...16.0
    /// The range ``sigma`` may take.
    public static let sigmaRange = -10.0...10.0

    /// Makes options; each defaults to libapriltag's own default.
    public init(decimate: Double = defaultDecimate, sigma: Double = defaultSigma, refineEdges: Bool = true) {
        self.decimate = decimate
        self.sigma = sigma
        self.refineEdges = refineEdges
    }

    /// The options that differ from the defaults, as pattern options (`decimate=1`, `refine=0`).
    var patternOptions: [String?] {
        [
            decimate == Self.defaultDecimate ? nil : "decimate=\(decimate)",
            sigma == Self.defaultSigma ? nil : "sigma=\(sigma)",
            refineEdges ? nil : "refine=0",
        ]
    }
}
