import Glibc
import Pixels
import Synchronization
import SystemCalls

/// Owns an open device: negotiates at open, runs the capture loop on its own thread, and tears
/// down (STREAMOFF, munmap, REQBUFS 0, close) exactly once, whatever ends it.
final class CaptureSession: Sendable {
    private enum Phase: Sendable {
        case open
        case streaming(CaptureThread)
        case stopping
        case closed
    }

    private struct State: Sendable {
        var phase = Phase.open
        var deviceOpen = true
        var statistics = CaptureStatistics()
        var report: TeardownReport?
    }

    let path: String
    let settings: CaptureSettings
    let format: NegotiatedFormat
    let queue: FrameQueue
    private let device: V4L2Device
    private let grant: PixelFormatGrant
    /// Converts the frames when the camera streams in a format chosen for it.
    private let converter: FrameConverter?
    private let state = Mutex(State())
    private let stopRequested = Atomic<Bool>(false)
    private let wakeDescriptors: (read: Int32, write: Int32)

    init(path: String, settings: CaptureSettings, io: DeviceIO) throws(CaptureError) {
        guard settings.pixelFormat == .bgr24 || settings.pixelFormat == .gray8 else {
            throw CaptureError(kind: .invalidSettings, device: path, call: "open",
                               detail: "frames are bgr24 or gray8, not \(settings.pixelFormat)")
        }
        guard settings.width > 0, settings.height > 0, settings.bufferCount > 0, settings.queueLimit > 0,
              settings.frameTimeout > .zero, (settings.framesPerSecond ?? 1) > 0 else {
            throw CaptureError(kind: .invalidSettings, device: path, call: "open",
                               detail: "size, buffer count, queue limit, frame rate and timeout must be positive")
        }
        let pipe = try io.openWakePipe(device: path)
        do {
            let device = try V4L2Device(path: path, io: io)
            (format, grant, converter) = try Self.negotiate(device, path: path, settings: settings)
            self.device = device
        } catch {
            close(pipe[0])
            close(pipe[1])
            throw error
        }
        self.path = path
        self.settings = settings
        self.queue = FrameQueue(limit: settings.queueLimit)
        self.wakeDescriptors = (pipe[0], pipe[1])
    }

    deinit {
        // A thread that is still running holds the session, so none is left here; the device is
        // closed unless frames() or stop() already did.
        if state.withLock({ $0.deviceOpen }) { _ = device.close() }
        close(wakeDescriptors.read)
        close(wakeDescriptors.write)
    }

    // MARK: Negotiation

    private static func negotiate(
        _ device: V4L2Device, path: String, settings: CaptureSettings
    ) throws(CaptureError) -> (NegotiatedFormat, PixelFormatGrant, FrameConverter?) {
        let capability = try device.capability()
        guard capability.canCapture, capability.canStream else {
            throw CaptureError(kind: .notACaptureDevice, device: path, call: "VIDIOC_QUERYCAP",
                               detail: "is not a video capture device with streaming I/O")
        }
        // libv4lconvert makes BGR24 from YUYV, MJPEG and others; gray is the Y plane of YUV 4:2:0.
        // With a camera format chosen, the camera streams in it and the frames are converted here.
        let wanted: FourCC = settings.cameraFormat ?? (settings.pixelFormat == .bgr24 ? .bgr24 : .yuv420)
        if let native = settings.cameraFormat {
            let offered = ((try? device.formats()) ?? []).filter { !$0.isEmulated }.map(\.fourCC)
            guard offered.contains(native) else {
                throw CaptureError(kind: .formatRefused, device: path, call: "VIDIOC_S_FMT",
                                   detail: "asked for \(native), which the camera does not send (it sends "
                                       + (offered.isEmpty ? "no format it names" : offered.map { "\($0)" }.joined(separator: ", ")) + ")")
            }
        }
        let grant = try device.setFormat(width: settings.width, height: settings.height, fourCC: wanted)
        let minimumStride = settings.cameraFormat == nil ? grant.width * settings.pixelFormat.bytesPerPixel : 0
        guard grant.fourCC == wanted, grant.width > 0, grant.height > 0, grant.bytesPerLine >= minimumStride else {
            throw CaptureError(kind: .formatRefused, device: path, call: "VIDIOC_S_FMT",
                               detail: "asked for \(wanted) \(settings.width)x\(settings.height), the driver granted "
                                   + "\(grant.fourCC) \(grant.width)x\(grant.height) with \(grant.bytesPerLine) bytes per line")
        }
        let converter = try settings.cameraFormat.map { _ throws(CaptureError) in
            try device.makeConverter(source: grant, output: settings.pixelFormat)
        }
        var (interval, settable) = (try? device.frameInterval()) ?? (nil, false)
        if let fps = settings.framesPerSecond, settable {
            _ = try device.setFrameInterval(FrameInterval(framesPerSecond: fps))
            interval = try device.frameInterval().interval
        }
        if let current = interval, current.numerator == 0 || current.denominator == 0 { interval = nil }
        let deviceFormats = ((try? device.formats()) ?? []).filter { format in
            !format.isEmulated && format.sizes.contains { size in
                (size.width...max(size.width, size.maximumWidth)).contains(grant.width)
                    && (size.height...max(size.height, size.maximumHeight)).contains(grant.height)
            }
        }.map(\.fourCC)
        let format = NegotiatedFormat(
            width: grant.width, height: grant.height, pixelFormat: settings.pixelFormat,
            rowStride: converter == nil ? grant.bytesPerLine : grant.width * settings.pixelFormat.bytesPerPixel,
            frameInterval: interval, frameRateSettable: settable, deviceFormats: deviceFormats, requested: settings,
            cameraFormat: settings.cameraFormat)
        return (format, grant, converter)
    }

    // MARK: Calls made while open

    /// Runs `body` with the device unless it was closed; control calls go through here so that
    /// teardown never closes the descriptor under them.
    func withDevice<R>(call: String, _ body: (V4L2Device) throws(CaptureError) -> R) throws(CaptureError) -> R {
        let result: Result<R, CaptureError> = state.withLock { state in
            guard state.deviceOpen else {
                return .failure(CaptureError(kind: .closed, device: path, call: call, detail: "after the camera was closed"))
            }
            do throws(CaptureError) { return .success(try body(device)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    var statistics: CaptureStatistics { state.withLock { $0.statistics } }
    var teardownReport: TeardownReport? { state.withLock { $0.report } }

    /// Whether frames in `fourCC` are compressed, each as long as its data.
    private static func isCompressed(_ fourCC: FourCC) -> Bool { fourCC == .mjpeg || fourCC == FourCC("JPEG") }

    // MARK: Starting and stopping

    /// Starts the capture thread; false when streaming already started or the session ended.
    func start() -> Bool {
        state.withLock { state in
            guard case .open = state.phase else { return false }
            state.phase = .streaming(CaptureThread { [self] in run() })
            return true
        }
    }

    /// Asks the capture loop to end without waiting for it (safe from any context).
    func requestStop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        // A full pipe (EAGAIN) already holds a wake-up, so a failure here needs no answer.
        var byte: UInt8 = 1
        _ = try? SystemCall.retrying("write") { write(wakeDescriptors.write, &byte, 1) }
    }

    /// Ends streaming and tears down; returns once that is done (unless called from the capture
    /// thread itself, or while another caller is already stopping).
    func stop() {
        requestStop()
        let previous: Phase = state.withLock { state in
            let previous = state.phase
            if case .closed = previous { return previous }
            state.phase = .stopping
            return previous
        }
        switch previous {
        case .open:
            let report = tearDown(reason: .stopped, streaming: false, buffersRequested: false)
            state.withLock { $0.report = report; $0.phase = .closed }
            queue.finish(nil)
        case .streaming(let thread):
            if !thread.isCurrent { thread.join() }
            state.withLock { $0.phase = .closed }
        case .stopping, .closed:
            break
        }
    }

    // MARK: The capture loop (on the capture thread)

    private func run() {
        var streaming = false, buffersRequested = false
        var failure: CaptureError?
        do throws(CaptureError) {
            let granted = try device.requestBuffers(settings.bufferCount)
            buffersRequested = true
            guard granted > 0 else {
                throw CaptureError(kind: .callFailed, device: path, call: "VIDIOC_REQBUFS", detail: "the driver granted no buffer")
            }
            var buffers: [MappedBuffer] = []
            for index in 0..<granted {
                let buffer = try device.mapBuffer(index)
                guard buffer.length >= grant.bytesPerLine * grant.height else {
                    throw CaptureError(kind: .formatRefused, device: path, call: "VIDIOC_QUERYBUF",
                                       detail: "buffer \(index) holds \(buffer.length) bytes, a frame needs \(grant.bytesPerLine * grant.height)")
                }
                buffers.append(buffer)
                try device.queueBuffer(index)
            }
            try device.streamOn()
            streaming = true
            try capture(from: buffers)
        } catch {
            failure = error
        }
        let report = tearDown(reason: failure.map { .failed($0) } ?? .stopped, streaming: streaming, buffersRequested: buffersRequested)
        state.withLock { $0.report = report }
        queue.finish(failure)
    }

    private enum Wait {
        case buffer(DequeuedBuffer)
        case failed(errno: Int32)
        case stop
    }

    private func capture(from buffers: [MappedBuffer]) throws(CaptureError) {
        let frameBytes = converter?.outputBytes ?? grant.bytesPerLine * grant.height
        let pool = FramePool(byteCount: frameBytes, capacity: buffers.count + settings.queueLimit + 2)
        // A compressed frame is as long as it is: only an empty one is short.
        let expectedBytes = converter == nil ? frameBytes : Self.isCompressed(grant.fourCC) ? 1 : grant.bytesPerLine * grant.height
        var machine = CaptureStateMachine(maximumConsecutiveRestarts: settings.maximumConsecutiveRestarts, expectedBytes: expectedBytes)
        while true {
            switch try waitForBuffer() {
            case .stop:
                return
            case .failed(let errno):
                switch machine.dequeueFailed(errno: errno) {
                case .fail(let errno): throw CaptureError.failed(device: path, call: "VIDIOC_DQBUF", errno: errno)
                case .restart: try restart(bufferCount: buffers.count)
                }
            case .buffer(let buffer):
                guard buffer.index >= 0, buffer.index < buffers.count else {
                    throw CaptureError(kind: .callFailed, device: path, call: "VIDIOC_DQBUF",
                                       detail: "the driver returned buffer \(buffer.index) of \(buffers.count)")
                }
                var action = machine.dequeued(buffer)
                var pixels: PixelBuffer?
                if case .deliver = action {
                    let source = buffers[buffer.index].address
                    if let converter {
                        var failure: String?
                        let bytesUsed = min(buffer.bytesUsed, buffers[buffer.index].length)
                        pixels = try? pool.makeBuffer(
                            width: grant.width, height: grant.height, format: settings.pixelFormat, rowStride: format.rowStride
                        ) { target in failure = converter.convert(source, bytesUsed: bytesUsed, into: target) }
                        if failure != nil {
                            pixels = nil
                            action = machine.conversionFailed(action)
                        }
                    } else {
                        pixels = try? pool.makeBuffer(
                            width: grant.width, height: grant.height, format: settings.pixelFormat, rowStride: grant.bytesPerLine
                        ) { target in target.copyMemory(from: source, byteCount: frameBytes) }
                    }
                }
                // The pixels are copied out: the driver may fill this buffer again.
                try device.queueBuffer(buffer.index)
                record(action, buffer: buffer, pixels: pixels)
            }
        }
    }

    private func record(_ action: CaptureStateMachine.BufferAction, buffer: DequeuedBuffer, pixels: PixelBuffer?) {
        var discarded = 0
        if case .deliver(let dropped, _) = action, let pixels {
            discarded = queue.push(Frame(
                pixels: pixels, sequence: buffer.sequence, timestamp: .nanoseconds(buffer.timestampNanoseconds),
                droppedBefore: dropped))
        }
        let retries = device.counters.eintrRetries
        state.withLock { state in
            switch action {
            case .deliver(_, let gap):
                state.statistics.sequenceGaps += gap
                state.statistics.delivered += 1
            case .drop(let reason, let gap):
                state.statistics.sequenceGaps += gap
                switch reason {
                case .errorFlagged: state.statistics.errorFlagged += 1
                case .nonMonotonicTimestamp: state.statistics.nonMonotonicTimestamps += 1
                case .shortFrame: state.statistics.shortFrames += 1
                case .unconvertible: state.statistics.unconvertible += 1
                }
            }
            state.statistics.discardedForSlowConsumer += discarded
            state.statistics.interruptedRetries = Int(retries)
        }
    }

    /// Waits for a filled buffer, for at most the frame timeout.
    private func waitForBuffer() throws(CaptureError) -> Wait {
        let clock = ContinuousClock()
        let deadline = clock.now + settings.frameTimeout
        while true {
            if stopRequested.load(ordering: .sequentiallyConsistent) { return .stop }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw CaptureError(kind: .timedOut, device: path, call: "poll",
                                   detail: "gave no frame within \(settings.frameTimeout)")
            }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            let wait = try device.wait(timeoutMilliseconds: milliseconds, wakeDescriptor: wakeDescriptors.read)
            if wait.woken || stopRequested.load(ordering: .sequentiallyConsistent) { return .stop }
            guard wait.readable || wait.failed else { continue }
            switch device.dequeueBuffer() {
            case .buffer(let buffer): return .buffer(buffer)
            case .failed(let errno): return .failed(errno: errno)
            case .wouldBlock:
                if wait.failed {
                    throw CaptureError(kind: .pollFailed, device: path, call: "poll",
                                       detail: "reported events 0x\(String(UInt16(bitPattern: wait.pollEvents), radix: 16)) "
                                           + "(POLLERR or POLLHUP) and VIDIOC_DQBUF had no frame")
                }
                state.withLock { $0.statistics.wouldBlockRetries += 1 }
            }
        }
    }

    /// After EIO: STREAMOFF returns every buffer to us; queue them all again and STREAMON.
    private func restart(bufferCount: Int) throws(CaptureError) {
        let status = device.streamOff()
        if status != 0 { throw CaptureError.failed(device: path, call: "VIDIOC_STREAMOFF", errno: status) }
        for index in 0..<bufferCount { try device.queueBuffer(index) }
        try device.streamOn()
        state.withLock { $0.statistics.restarts += 1 }
    }

    // MARK: Teardown

    /// Runs every step even when one fails; marks the device closed before closing it.
    private func tearDown(reason: TeardownReport.Reason, streaming: Bool, buffersRequested: Bool) -> TeardownReport {
        let streamOffErrno = streaming ? device.streamOff() : 0
        converter?.close()
        _ = device.unmapBuffers()
        let releaseErrno = buffersRequested ? device.releaseBuffers() : 0
        let counters = device.counters
        state.withLock { $0.deviceOpen = false }
        let closeErrno = device.close()
        return TeardownReport(
            reason: reason, wasStreaming: streaming, streamOffErrno: streamOffErrno, buffersMapped: counters.buffersMapped,
            buffersUnmapped: counters.buffersUnmapped, releaseErrno: releaseErrno, closed: true, closeErrno: closeErrno)
    }
}
