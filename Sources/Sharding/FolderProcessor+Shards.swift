package import MarkerShutter
extension FolderProcessor {
    /// The frames of each of `shards` shards of a folder of `frames` frames, in order: contiguous
    /// runs of whole stretches (``stretchLength(frames:)``), so that every shard starts where the
    /// frame-to-frame search starts afresh anyway and each frame's detection in a shard is the one
    /// it gets when the whole folder is processed.
    ///
    /// The stretches are shared out as evenly as whole stretches allow (shard `k` starts at stretch
    /// `stretches * k / shards`, rounded down); with more shards than stretches, some are empty.
    /// Every frame is in exactly one shard, and the cut depends on the folder's length and `shards`
    /// alone.
    ///
    /// - Parameters:
    ///   - frames: The number of frames in the folder.
    ///   - shards: How many shards; 1 or more.
    /// - Returns: `shards` ranges, one per shard, together covering `0..<frames`.
    package static func shardRanges(frames: Int, shards: Int) -> [Range<Int>] {
        precondition(frames >= 0 && shards >= 1, "cannot cut \(frames) frames into \(shards) shards")
        let stretch = stretchLength(frames: frames)
        let stretches = (frames + stretch - 1) / stretch
        return (0..<shards).map { shard in
            let first = stretches * shard / shards, end = stretches * (shard + 1) / shards
            return min(frames, first * stretch)..<min(frames, end * stretch)
        }
    }
}
