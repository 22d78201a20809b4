package import FileFormats

/// The settings a `process` run over one camera's folder (``ProcessRun``) and over a rig's
/// recording (``RigProcessRun``) have alike, so that a command sets them the same way for both.
package protocol ProcessRunSettings {
    /// Hold time, jobs and pixel limit.
    var options: FolderProcessor.Options { get set }
    /// OpenCV's threads inside one detection; nil: 1 with several jobs, else OpenCV's own.
    var openCVThreads: Int? { get set }
    /// Where the JSON Lines go (see ``SafeOutput/destination(for:replacing:inputs:)``).
    var output: SafeOutput.Destination { get set }
    /// Where each frame is written with its detection drawn.
    var annotate: String? { get set }
}

extension ProcessRun.Configuration: ProcessRunSettings {}
extension RigProcessRun.Configuration: ProcessRunSettings {}
