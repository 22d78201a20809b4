import Foundation
import MarkerDetection
import Pixels
import Testing

/// Debian's /usr/bin/python3 with cv2 and PIL, which read and write the files compared.
enum CodecPython {
    static let available = (try? run("import cv2, PIL")) != nil

    /// Runs `script` with `arguments`; throws with its standard error.
    static func run(_ script: String, _ arguments: [String] = []) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script] + arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        struct Failed: Error { let message: String }
        guard process.terminationStatus == 0 else { throw Failed(message: String(decoding: err, as: UTF8.self)) }
        return String(decoding: out, as: UTF8.self)
    }
}

/// PNG and JPEG files are read and written by libpng and libjpeg directly, with the settings
/// OpenCV 4.6's imdecode and imencode use: the pixels read, and the bytes written, are Python
/// cv2's to the last byte (Debian's /usr/bin/python3 with python3-opencv; PIL writes the PNG kinds
/// cv2 does not).
@Suite(.enabled(if: CodecPython.available, "needs /usr/bin/python3 with cv2 and PIL (python3-opencv, python3-pil)"))
struct OpenCVCodecParityTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "codec-parity-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Every PNG kind OpenCV reads, written by PIL and cv2 (and an eXIf chunk by hand), then read
    /// by cv2.imread in colour and in gray into raw files.
    static let writePNGs = #"""
    import sys, struct, zlib, numpy as np, cv2
    from PIL import Image
    out = sys.argv[1]
    y, x = np.mgrid[0:37, 0:53]
    r = (x * 5 + y * 3) % 256; g = (x * 2 + y * 7) % 256; b = (x * 11 + y) % 256; a = (x + y * 4) % 256
    rgb = np.dstack([r, g, b]).astype(np.uint8)
    Image.fromarray(rgb).save(f"{out}/rgb8.png")
    Image.fromarray(np.dstack([r, g, b, a]).astype(np.uint8)).save(f"{out}/rgba8.png")
    Image.fromarray(r.astype(np.uint8)).save(f"{out}/gray8.png")
    Image.fromarray(np.dstack([r, a]).astype(np.uint8), "LA").save(f"{out}/graya8.png")
    Image.fromarray(rgb).quantize(64).save(f"{out}/palette.png")
    pal = Image.fromarray(rgb).quantize(16); pal.info["transparency"] = 3; pal.save(f"{out}/palette-trns.png", transparency=3)
    Image.fromarray(((x + y) % 2 * 255).astype(np.uint8)).convert("1").save(f"{out}/gray1.png")
    cv2.imwrite(f"{out}/rgb16.png", (np.dstack([b, g, r]) * 257).astype(np.uint16))
    cv2.imwrite(f"{out}/gray16.png", (r * 251).astype(np.uint16))
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    rows = b"".join(b"\x00" + bytes(rgb[j].tobytes()) for j in range(rgb.shape[0]))
    exif = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 1) + struct.pack("<HHII", 0x0112, 3, 1, 6) + struct.pack("<I", 0)
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 53, 37, 8, 2, 0, 0, 0)) + chunk(b"eXIf", exif)
           + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    open(f"{out}/exif-orientation-6.png", "wb").write(png)
    for name in ["rgb8", "rgba8", "gray8", "graya8", "palette", "palette-trns", "gray1", "rgb16", "gray16", "exif-orientation-6"]:
        for mode, flag in (("bgr", cv2.IMREAD_COLOR), ("gray", cv2.IMREAD_GRAYSCALE)):
            pixels = cv2.imread(f"{out}/{name}.png", flag)
            open(f"{out}/{name}.{mode}.raw", "wb").write(np.ascontiguousarray(pixels).tobytes())
            print(name, mode, pixels.shape[1], pixels.shape[0])
    """#

    @Test func everyPNGKindReadsAsCv2ReadsIt() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let lines = try CodecPython.run(Self.writePNGs, [folder]).split(separator: "\n")
        #expect(lines.count == 20)
        for line in lines {
            let fields = line.split(separator: " ").map(String.init)
            let (name, mode, width, height) = (fields[0], fields[1], Int(fields[2])!, Int(fields[3])!)
            let read = try ImageFile.read("\(folder)/\(name).png", channels: mode == "gray" ? .gray : .bgr)
            #expect(read.width == width && read.height == height, "\(name) as \(mode): \(read.width)x\(read.height)")
            let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name).\(mode).raw")))
            let found = (0..<read.height).flatMap { read.row($0) }
            #expect(found == expected, "\(name) as \(mode): the pixels differ from cv2.imread's")
        }
    }

    @Test(arguments: [PixelFormat.gray8, .bgr24])
    func pngAndJPEGAreWrittenAsCv2WritesThem(format: PixelFormat) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let channels = format == .gray8 ? 1 : 3
        let (width, height) = (61, 43)
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<channels { bytes.append(UInt8(truncatingIfNeeded: x * (3 + c) + y * (7 - c) + (x * y) % 13)) }
            }
        }
        let image = try PixelBuffer(copying: bytes, width: width, height: height, format: format)
        try Data(bytes).write(to: URL(fileURLWithPath: "\(folder)/pixels.raw"))
        try Data(ImageFile.encode(image, as: .png)).write(to: URL(fileURLWithPath: "\(folder)/ours.png"))
        try Data(ImageFile.encode(image, as: .jpeg(quality: 87))).write(to: URL(fileURLWithPath: "\(folder)/ours.jpg"))
        let verdict = try CodecPython.run(#"""
            import sys, numpy as np, cv2
            out, w, h, c = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
            pixels = np.fromfile(f"{out}/pixels.raw", np.uint8).reshape((h, w, c) if c == 3 else (h, w))
            for ext, params in ((".png", []), (".jpg", [cv2.IMWRITE_JPEG_QUALITY, 87])):
                ok, theirs = cv2.imencode(ext, pixels, params)
                ours = open(f"{out}/ours{ext}", "rb").read()
                print(ext, "same" if ok and theirs.tobytes() == ours else f"differ ({len(ours)} bytes against {len(theirs)})")
            """#, [folder, "\(width)", "\(height)", "\(channels)"])
        #expect(verdict == ".png same\n.jpg same\n", "\(format): \(verdict)")
    }
}
