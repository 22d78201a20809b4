/// The sizes a recording may claim before anything is allocated for it. A length read from a file
/// is checked against these (and against what is left of the file) first, so that a corrupt or
/// hostile recording cannot make the reader allocate more than one chunk's worth of memory.
public enum BagLimits {
    /// The most bytes one chunk may hold once decompressed, and one message: 1 GiB (a chunk holds
    /// whole messages; an 8K RGB image is 100 MB).
    public static let chunkBytes = 1 << 30
    /// The most bytes of a record header, a connection or a schema: 16 MiB.
    public static let headerBytes = 16 << 20
    /// The most bytes of an MCAP summary section or of a ROS 1 bag's index section: 256 MiB.
    public static let indexBytes = 256 << 20
    /// The most bytes of a rosbag2 folder's metadata.yaml: 16 MiB.
    public static let metadataBytes = 16 << 20
    /// The most bytes of a message read to learn its stamp and size, before its pixels: 64 KiB
    /// (the header's frame id and the encoding come first).
    public static let messagePrefixBytes = 64 << 10
}
