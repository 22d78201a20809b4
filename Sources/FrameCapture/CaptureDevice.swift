import Glibc

/// A video capture device node found by ``CaptureDevice/list(in:stableNamesIn:)``.
public struct CaptureDevice: Sendable, Hashable {
    /// The device node, `/dev/videoN`.
    public let path: String
    /// Stable names of the node: the links in `/dev/v4l/by-id` that point at it (they survive
    /// replugging and reboots, unlike `videoN`).
    public let stableNames: [String]
    /// The driver (`uvcvideo`).
    public let driver: String
    /// The card name (the camera's product name).
    public let card: String
    /// Where the device is attached (`usb-0000:00:14.0-1`).
    public let busInfo: String

    /// Lists the video nodes in `directory` that can capture and stream (metadata and output nodes
    /// are left out), each opened briefly through libv4l2. Nodes that cannot be opened are skipped.
    ///
    /// - Parameters:
    ///   - directory: Where to look for `video*` nodes.
    ///   - byID: Where udev keeps stable links to them.
    /// - Returns: The devices, sorted by node number.
    public static func list(in directory: String = "/dev", stableNamesIn byID: String = "/dev/v4l/by-id") -> [CaptureDevice] {
        list(in: directory, stableNamesIn: byID, io: .libv4l2)
    }

    static func list(in directory: String, stableNamesIn byID: String, io: DeviceIO) -> [CaptureDevice] {
        let links = symbolicLinks(in: byID)
        let nodes = entries(of: directory).filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
        return nodes.sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }.compactMap { name in
            let path = directory + "/" + name
            guard let device = try? V4L2Device(path: path, io: io) else { return nil }
            defer { _ = device.close() }
            guard let capability = try? device.capability(), capability.canCapture, capability.canStream else { return nil }
            let target = canonicalPath(path)
            return CaptureDevice(
                path: path, stableNames: links.filter { $0.target == target }.map(\.path).sorted(),
                driver: capability.driver, card: capability.card, busInfo: capability.busInfo)
        }
    }

    private static func entries(of directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    private static func symbolicLinks(in directory: String) -> [(path: String, target: String)] {
        entries(of: directory).map { directory + "/" + $0 }.compactMap { path in
            canonicalPath(path).map { (path, $0) }
        }
    }

    private static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// What VIDIOC_QUERYCAP says.
struct DeviceCapability: Sendable, Hashable {
    var driver: String
    var card: String
    var busInfo: String
    var canCapture: Bool
    var canStream: Bool
}
