import FileFormats

extension RigReport {
    /// rig.json: every camera after the joint solve (intrinsics with standard deviations and 95%
    /// intervals, its pose relative to the first camera with the baseline, the translation, the
    /// rotation's angle and vector, each with its standard deviation and 95% interval, and the
    /// pose's covariance), every set (cameras, RMS) and every dropped one (reason), how the
    /// cameras were placed, each pair's rectification and the epipolar error of every set, the
    /// stereo matrices of two cameras, and the rules.
    ///
    /// Keys sorted, two spaces of indent; a number that is not finite is `null` (``RigFile``, in
    /// FileFormats, names the keys and reads the file back).
    public var json: String { RigFile(self).text }
}
