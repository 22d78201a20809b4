// The only file that calls into CV4L2Shim. Every status is checked here and turned into a
// CaptureError that names the device, the call and errno; nothing outside this file sees a C type.

import CV4L2Shim
import Glibc
import Pixels

/// How a device is reached: through libv4l2, or through a table a test supplies.
struct DeviceIO: @unchecked Sendable {
    // @unchecked: the table is immutable and outlives every device opened with it (a static for
    // libv4l2; a test keeps its fake alive while the camera is open).
    let table: UnsafePointer<msv_io_ops>?

    static let libv4l2 = DeviceIO(table: nil)

    /// Opens the pipe that wakes the capture thread (close-on-exec, non-blocking) through the table's
    /// `pipe2`, so that a test's table can make it fail.
    ///
    /// - Returns: The read and the write end.
    /// - Throws: ``CaptureError`` naming `device`, `pipe2` and errno.
    func openWakePipe(device: String) throws(CaptureError) -> [Int32] {
        var descriptors: [Int32] = [-1, -1]
        let status = descriptors.withUnsafeMutableBufferPointer { msv_wake_pipe_open(table, $0.baseAddress) }
        guard status == 0 else { throw CaptureError.failed(device: device, call: "pipe2", errno: status) }
        return descriptors
    }
}

extension DeviceIO {
    /// The file libv4l2 was loaded from, symbolic links resolved (msv_library_path), or nil when
    /// no shared object holds it.
    static func libraryPath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = buffer.withUnsafeMutableBufferPointer { msv_library_path($0.baseAddress, $0.count) }
        guard status == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// What VIDIOC_DQBUF gave back.
struct DequeuedBuffer: Sendable, Equatable {
    var index: Int
    var sequence: UInt32
    var isErrorFlagged: Bool
    var isMonotonicClock: Bool
    var bytesUsed: Int
    var timestampNanoseconds: Int64
}

enum DequeueResult: Sendable, Equatable {
    case buffer(DequeuedBuffer)
    case wouldBlock
    case failed(errno: Int32)
}

struct WaitResult: Sendable, Equatable {
    var readable: Bool
    var failed: Bool      // POLLERR, POLLHUP or POLLNVAL
    var woken: Bool
    var pollEvents: Int16
}

struct DeviceCounters: Sendable, Equatable {
    var eintrRetries: UInt64
    var buffersMapped: Int
    var buffersUnmapped: Int
}

/// A mapped capture buffer: where its bytes are. Valid until `unmapBuffers()`.
struct MappedBuffer: @unchecked Sendable {
    // @unchecked: read-only memory owned by the device handle; only the capture thread reads it.
    let address: UnsafeRawPointer
    let length: Int
}

/// An open V4L2 device node (a `msv_device`). Not synchronised: the capture code makes streaming
/// calls from one thread, control calls from others go through `Camera`'s lock, and `close()` runs
/// once nobody else uses the handle.
final class V4L2Device: @unchecked Sendable {
    let path: String
    private var handle: OpaquePointer?

    init(path: String, io: DeviceIO) throws(CaptureError) {
        self.path = path
        var opened: OpaquePointer?
        let status = msv_device_open(path, io.table, &opened)
        guard status == 0, let opened else { throw CaptureError.failed(device: path, call: "open", errno: status) }
        handle = opened
    }

    deinit {
        if let handle { _ = msv_device_close(handle) }
    }

    private var device: OpaquePointer {
        guard let handle else { preconditionFailure("\(path) used after close()") }
        return handle
    }

    private func check(_ status: Int32, _ call: String) throws(CaptureError) {
        if status != 0 { throw CaptureError.failed(device: path, call: call, errno: status) }
    }

    var descriptor: Int32 { msv_device_descriptor(device) }

    var counters: DeviceCounters {
        var raw = msv_device_counters()
        msv_device_get_counters(device, &raw)
        return DeviceCounters(
            eintrRetries: raw.eintr_retries, buffersMapped: Int(raw.buffers_mapped), buffersUnmapped: Int(raw.buffers_unmapped))
    }

    /// close(); returns errno, or 0. The handle is gone afterwards whatever close reported.
    func close() -> Int32 {
        guard let handle else { return 0 }
        self.handle = nil
        return msv_device_close(handle)
    }

    /// A converter for this device's frames in `source` (a format the camera sends, chosen at
    /// VIDIOC_S_FMT) to `output`; close it before the device.
    func makeConverter(source: PixelFormatGrant, output: PixelFormat) throws(CaptureError) -> FrameConverter {
        var converter: OpaquePointer?
        try check(msv_converter_create(device, &converter), "v4lconvert_create")
        guard let converter else { throw CaptureError.failed(device: path, call: "v4lconvert_create", errno: EIO) }
        return FrameConverter(handle: converter, source: source, output: output)
    }

    // MARK: Description

    func capability() throws(CaptureError) -> DeviceCapability {
        var raw = msv_capability()
        try check(msv_device_query_capability(device, &raw), "VIDIOC_QUERYCAP")
        return DeviceCapability(
            driver: Self.string(raw.driver), card: Self.string(raw.card), busInfo: Self.string(raw.bus_info),
            canCapture: raw.capabilities & MSV_CAP_VIDEO_CAPTURE != 0,
            canStream: raw.capabilities & MSV_CAP_STREAMING != 0)
    }

    /// Every entry of VIDIOC_ENUM_FMT, with its sizes and intervals.
    func formats() throws(CaptureError) -> [FormatDescription] {
        var formats: [FormatDescription] = []
        var raw = msv_format_description()
        while let status = Optional(msv_device_enum_format(device, UInt32(formats.count), &raw)), status != EINVAL {
            try check(status, "VIDIOC_ENUM_FMT")
            let fourCC = FourCC(rawValue: raw.pixel_format)
            formats.append(FormatDescription(
                fourCC: fourCC, description: Self.string(raw.description),
                isCompressed: raw.flags & MSV_FMT_FLAG_COMPRESSED != 0, isEmulated: raw.flags & MSV_FMT_FLAG_EMULATED != 0,
                sizes: try frameSizes(of: fourCC)))
        }
        return formats
    }

    private func frameSizes(of fourCC: FourCC) throws(CaptureError) -> [FrameSizeDescription] {
        var sizes: [FrameSizeDescription] = []
        var raw = msv_frame_size()
        var index: UInt32 = 0
        while let status = Optional(msv_device_enum_frame_size(device, fourCC.rawValue, index, &raw)), status != EINVAL {
            try check(status, "VIDIOC_ENUM_FRAMESIZES")
            index += 1
            let discrete = raw.type == MSV_FRMSIZE_TYPE_DISCRETE
            sizes.append(FrameSizeDescription(
                width: Int(raw.min_width), height: Int(raw.min_height),
                maximumWidth: Int(raw.max_width), maximumHeight: Int(raw.max_height),
                isDiscrete: discrete,
                frameIntervals: try frameIntervals(of: fourCC, width: raw.min_width, height: raw.min_height)))
            if !discrete { break }
        }
        return sizes
    }

    private func frameIntervals(of fourCC: FourCC, width: UInt32, height: UInt32) throws(CaptureError) -> [FrameInterval] {
        var intervals: [FrameInterval] = []
        var raw = msv_frame_interval()
        var index: UInt32 = 0
        while let status = Optional(msv_device_enum_frame_interval(device, fourCC.rawValue, width, height, index, &raw)),
              status != EINVAL {
            // Some drivers answer ENOTTY: they do not list intervals.
            if status == ENOTTY { break }
            try check(status, "VIDIOC_ENUM_FRAMEINTERVALS")
            index += 1
            intervals.append(FrameInterval(numerator: Int(raw.minimum.numerator), denominator: Int(raw.minimum.denominator)))
            if raw.type != MSV_FRMIVAL_TYPE_DISCRETE {
                intervals.append(FrameInterval(numerator: Int(raw.maximum.numerator), denominator: Int(raw.maximum.denominator)))
                break
            }
        }
        return intervals
    }

    // MARK: Format and frame rate

    func setFormat(width: Int, height: Int, fourCC: FourCC) throws(CaptureError) -> PixelFormatGrant {
        var raw = msv_pix_format(
            width: UInt32(clamping: width), height: UInt32(clamping: height), pixel_format: fourCC.rawValue,
            bytes_per_line: 0, size_image: 0)
        try check(msv_device_set_format(device, &raw), "VIDIOC_S_FMT")
        return PixelFormatGrant(
            width: Int(raw.width), height: Int(raw.height), fourCC: FourCC(rawValue: raw.pixel_format),
            bytesPerLine: Int(raw.bytes_per_line), sizeImage: Int(raw.size_image))
    }

    /// VIDIOC_G_PARM: the current interval, and whether it can be set.
    func frameInterval() throws(CaptureError) -> (interval: FrameInterval, settable: Bool) {
        var raw = msv_fract()
        var settable: Int32 = 0
        try check(msv_device_get_frame_interval(device, &raw, &settable), "VIDIOC_G_PARM")
        return (FrameInterval(numerator: Int(raw.numerator), denominator: Int(raw.denominator)), settable != 0)
    }

    func setFrameInterval(_ interval: FrameInterval) throws(CaptureError) -> FrameInterval {
        var raw = msv_fract(numerator: UInt32(clamping: interval.numerator), denominator: UInt32(clamping: interval.denominator))
        try check(msv_device_set_frame_interval(device, &raw), "VIDIOC_S_PARM")
        return FrameInterval(numerator: Int(raw.numerator), denominator: Int(raw.denominator))
    }

    // MARK: Controls

    func controls() throws(CaptureError) -> [CameraControl] {
        var controls: [CameraControl] = []
        var raw = msv_control_info()
        var next: UInt32 = 0
        while let status = Optional(msv_device_query_control(device, next | MSV_CTRL_FLAG_NEXT_CTRL, &raw)), status != EINVAL {
            try check(status, "VIDIOC_QUERYCTRL")
            next = raw.id
            let kind = ControlKind(rawType: raw.type)
            if kind == .controlClass || raw.flags & MSV_CTRL_FLAG_DISABLED != 0 { continue }
            var value: Int64?
            if kind.hasValue && raw.flags & MSV_CTRL_FLAG_WRITE_ONLY == 0 { value = Int64(try self.value(of: raw.id)) }
            controls.append(CameraControl(
                id: ControlID(rawValue: raw.id), name: Self.string(raw.name), kind: kind,
                minimum: raw.minimum, maximum: raw.maximum, step: raw.step, defaultValue: raw.default_value, value: value,
                isInactive: raw.flags & MSV_CTRL_FLAG_INACTIVE != 0, isReadOnly: raw.flags & MSV_CTRL_FLAG_READ_ONLY != 0
                    || raw.flags & MSV_CTRL_FLAG_GRABBED != 0,
                menu: kind == .menu || kind == .integerMenu ? try menu(of: raw, kind: kind) : []))
        }
        return controls
    }

    private func menu(of control: msv_control_info, kind: ControlKind) throws(CaptureError) -> [CameraControl.MenuItem] {
        var items: [CameraControl.MenuItem] = []
        guard control.minimum >= 0, control.maximum >= control.minimum, control.maximum < 256 else { return [] }
        for index in control.minimum...control.maximum {
            var name = (Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0),
                        Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0),
                        Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0),
                        Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0), Int8(0))
            var number: Int64 = 0
            let status = withUnsafeMutableBytes(of: &name) { bytes in
                msv_device_query_menu(device, control.id, UInt32(index), bytes.baseAddress!.assumingMemoryBound(to: CChar.self), &number)
            }
            if status == EINVAL { continue }   // a gap in the menu
            try check(status, "VIDIOC_QUERYMENU")
            let label = kind == .integerMenu ? String(number) : Self.string(name)
            items.append(CameraControl.MenuItem(value: index, name: label))
        }
        return items
    }

    func value(of control: UInt32) throws(CaptureError) -> Int32 {
        var value: Int32 = 0
        try check(msv_device_get_control(device, control, &value), "VIDIOC_G_CTRL")
        return value
    }

    func setValue(_ value: Int32, of control: UInt32) throws(CaptureError) {
        try check(msv_device_set_control(device, control, value), "VIDIOC_S_CTRL")
    }

    // MARK: Streaming

    func requestBuffers(_ count: Int) throws(CaptureError) -> Int {
        var granted: UInt32 = 0
        try check(msv_device_request_buffers(device, UInt32(clamping: count), &granted), "VIDIOC_REQBUFS")
        return Int(granted)
    }

    /// VIDIOC_REQBUFS with count 0; returns errno or 0 (teardown goes on either way).
    func releaseBuffers() -> Int32 {
        var granted: UInt32 = 0
        return msv_device_request_buffers(device, 0, &granted)
    }

    func mapBuffer(_ index: Int) throws(CaptureError) -> MappedBuffer {
        var address: UnsafeRawPointer?
        var length = 0
        let status = msv_device_map_buffer(device, UInt32(index), &address, &length)
        guard status == 0, let address else { throw CaptureError.failed(device: path, call: "mmap", errno: status) }
        return MappedBuffer(address: address, length: length)
    }

    /// munmap of every mapped buffer; returns errno or 0.
    func unmapBuffers() -> Int32 { msv_device_unmap_buffers(device) }

    func queueBuffer(_ index: Int) throws(CaptureError) {
        try check(msv_device_queue_buffer(device, UInt32(index)), "VIDIOC_QBUF")
    }

    func dequeueBuffer() -> DequeueResult {
        var raw = msv_buffer_info()
        let status = msv_device_dequeue_buffer(device, &raw)
        if status == EAGAIN { return .wouldBlock }
        if status != 0 { return .failed(errno: status) }
        return .buffer(DequeuedBuffer(
            index: Int(raw.index), sequence: raw.sequence, isErrorFlagged: raw.flags & MSV_BUF_FLAG_ERROR != 0,
            isMonotonicClock: raw.flags & MSV_BUF_FLAG_TIMESTAMP_MASK == MSV_BUF_FLAG_TIMESTAMP_MONOTONIC,
            bytesUsed: Int(raw.bytes_used), timestampNanoseconds: raw.timestamp_ns))
    }

    func streamOn() throws(CaptureError) {
        try check(msv_device_stream_on(device), "VIDIOC_STREAMON")
    }

    /// VIDIOC_STREAMOFF; returns errno or 0 (teardown goes on either way).
    func streamOff() -> Int32 { msv_device_stream_off(device) }

    func wait(timeoutMilliseconds: Int, wakeDescriptor: Int32) throws(CaptureError) -> WaitResult {
        var events: Int16 = 0
        var woken: Int32 = 0
        try check(msv_device_wait(device, Int32(clamping: timeoutMilliseconds), wakeDescriptor, &events, &woken), "poll")
        let failure = Int16(POLLERR | POLLHUP | POLLNVAL)
        return WaitResult(
            readable: events & Int16(POLLIN | POLLPRI) != 0, failed: events & failure != 0, woken: woken != 0, pollEvents: events)
    }

    // MARK: Helpers

    private static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { bytes in
            let count = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes.prefix(count), as: UTF8.self)
        }
    }
}

extension ControlKind {
    init(rawType: UInt32) {
        switch rawType {
        case MSV_CTRL_TYPE_INTEGER: self = .integer
        case MSV_CTRL_TYPE_BOOLEAN: self = .boolean
        case MSV_CTRL_TYPE_MENU: self = .menu
        case MSV_CTRL_TYPE_INTEGER_MENU: self = .integerMenu
        case MSV_CTRL_TYPE_BUTTON: self = .button
        case MSV_CTRL_TYPE_INTEGER64: self = .integer64
        case MSV_CTRL_TYPE_CTRL_CLASS: self = .controlClass
        default: self = .other(rawType)
        }
    }
}

extension ControlID {
    /// Well-known control ids, from <linux/videodev2.h>.
    static let brightnessID = MSV_CID_BRIGHTNESS
    static let contrastID = MSV_CID_CONTRAST
    static let saturationID = MSV_CID_SATURATION
    static let gainID = MSV_CID_GAIN
    static let powerLineFrequencyID = MSV_CID_POWER_LINE_FREQUENCY
    static let sharpnessID = MSV_CID_SHARPNESS
    static let exposureAutoID = MSV_CID_EXPOSURE_AUTO
    static let exposureAbsoluteID = MSV_CID_EXPOSURE_ABSOLUTE
    static let focusAbsoluteID = MSV_CID_FOCUS_ABSOLUTE
    static let focusAutoID = MSV_CID_FOCUS_AUTO
    static let autoWhiteBalanceID = MSV_CID_AUTO_WHITE_BALANCE
    static let whiteBalanceTemperatureID = MSV_CID_WHITE_BALANCE_TEMPERATURE
    static let autoGainID = MSV_CID_AUTOGAIN
    static let exposureManualValue = MSV_EXPOSURE_MANUAL
    static let exposureAperturePriorityValue = MSV_EXPOSURE_APERTURE_PRIORITY
}

/// libv4lconvert turning the frames a camera sends in a format chosen for it (`MJPG`, `YUYV`, ...)
/// into ``PixelFormat/bgr24`` or ``PixelFormat/gray8`` rows (msv_converter). Used by the capture
/// thread only; ``close()`` before the device is closed.
final class FrameConverter: @unchecked Sendable {
    // @unchecked: one thread converts; close() runs at teardown, after that thread ended.
    private var handle: OpaquePointer?
    /// What the camera sends.
    let source: PixelFormatGrant
    /// What the frames carry once converted.
    let output: PixelFormat
    /// The YUV 4:2:0 frame gray rows are taken from (its Y plane).
    private var planes: [UInt8]

    fileprivate init(handle: OpaquePointer, source: PixelFormatGrant, output: PixelFormat) {
        self.handle = handle
        self.source = source
        self.output = output
        planes = output == .gray8 ? [UInt8](repeating: 0, count: source.width * source.height * 3 / 2) : []
    }

    deinit { close() }

    /// Bytes one converted frame fills: rows of `width` pixels, packed.
    var outputBytes: Int { source.width * source.height * output.bytesPerPixel }

    /// Converts one frame of `bytesUsed` bytes at `data` into `target` (``outputBytes`` long).
    ///
    /// - Returns: nil, or why the frame could not be converted (libv4lconvert's words).
    func convert(_ data: UnsafeRawPointer, bytesUsed: Int, into target: UnsafeMutableRawPointer) -> String? {
        guard let handle else { return "the converter is closed" }
        var format = msv_pix_format(
            width: UInt32(source.width), height: UInt32(source.height), pixel_format: source.fourCC.rawValue,
            bytes_per_line: UInt32(clamping: source.bytesPerLine), size_image: UInt32(clamping: source.sizeImage))
        var message = [CChar](repeating: 0, count: 256)
        var written = 0
        let status: Int32
        if output == .gray8 {
            status = planes.withUnsafeMutableBytes { planes in
                msv_converter_convert(handle, &format, data, bytesUsed, MSV_PIX_FMT_YUV420, planes.baseAddress, planes.count,
                                      &written, &message, message.count)
            }
            if status == 0 { planes.withUnsafeBytes { target.copyMemory(from: $0.baseAddress!, byteCount: outputBytes) } }
        } else {
            status = msv_converter_convert(handle, &format, data, bytesUsed, MSV_PIX_FMT_BGR24, target, outputBytes,
                                           &written, &message, message.count)
        }
        guard status != 0 else { return nil }
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return reason.isEmpty ? "errno \(status)" : reason
    }

    /// Frees libv4lconvert's state; later frames are not converted.
    func close() {
        guard let handle else { return }
        self.handle = nil
        msv_converter_destroy(handle)
    }
}
