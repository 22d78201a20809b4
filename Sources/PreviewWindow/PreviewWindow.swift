import CPreviewShim
import CShimCore
import Dispatch
import Foundation
public import MarkerDetection
public import Pixels
import ShimCore
import Synchronization

/// A native window (OpenCV highgui over X11) showing frames with their detection and a badge drawn
/// on them, and reporting its keys and its closing.
///
/// highgui runs its event loop on one thread, so the window owns a thread of its own: it opens the
/// window, draws and shows frames, and runs the event loop between them. ``show(_:)`` never waits:
/// a frame handed in while an earlier one is still waiting replaces it, so the window always shows
/// the newest frame and drops those it cannot keep up with (counted in ``framesDropped``).
///
/// ```swift
/// try PreviewWindow.checkDisplay()            // before anything else is opened
/// let window = try PreviewWindow(title: "marker-shutter")
/// Task { for await event in window.events { handle(event) } }
/// window.show(PreviewWindow.Frame(pixels: pixels, detection: detection, badge: badge))
/// window.close()
/// ```
public final class PreviewWindow: Sendable {
    /// A frame to show: its pixels, what was found in them and the status box.
    public struct Frame: Sendable {
        /// The frame as captured (BGR24 or GRAY8).
        public var pixels: PixelBuffer
        /// Drawn on a copy of the pixels (markers, corners), as ``Annotation/draw(_:on:badge:)`` does.
        public var detection: Detection
        /// Drawn in the top-left corner.
        public var badge: Annotation.Badge?

        /// Makes a frame.
        public init(pixels: PixelBuffer, detection: Detection, badge: Annotation.Badge?) {
            self.pixels = pixels
            self.detection = detection
            self.badge = badge
        }
    }

    /// What the person at the window did.
    public enum Event: Sendable, Equatable {
        /// Space or Enter.
        case capture
        /// `q`.
        case quit
        /// The window was closed; no frame is shown after this.
        case closed
        /// A frame could not be drawn or shown (reported once, for the first such frame).
        case failed(String)
    }

    /// What waits to be shown: a frame to annotate, or a picture to make on the window's thread.
    private enum Pending: Sendable {
        case frame(Frame)
        case picture(@Sendable () throws -> PixelBuffer)
    }

    private struct Mailbox {
        var waiting: Pending?
        var shown = 0
        var dropped = 0
        /// Set by ``close()``: the thread closes the window and ends.
        var closing = false
        /// The window is gone: frames handed in are dropped.
        var ended = false
        /// Why the window could not be opened.
        var openFailure: PreviewWindowError?
    }

    /// Keys, closing and failures, in order; finishes when the window's thread ends.
    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let mailbox = Mutex(Mailbox())
    /// Signalled once by the thread when it has ended.
    private let finished = DispatchSemaphore(value: 0)
    /// How long one turn of the event loop lasts when no frame waits.
    static let pollMilliseconds: Int32 = 15

    /// Whether windows can be opened: DISPLAY is set and its X server answers. Call it before
    /// opening cameras or folders, since without a display highgui's toolkit ends the process.
    ///
    /// - Returns: The screen's size, which windows are fitted into.
    /// - Throws: ``PreviewWindowError/noDisplay(_:)`` saying which.
    @discardableResult
    public static func checkDisplay() throws(PreviewWindowError) -> (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        var error = shim_error()
        let status = mpw_display_check(nil, &width, &height, &error)
        guard status == .SHIM_STATUS_OK else { throw PreviewWindowError(status, error) }
        return (Int(width), Int(height))
    }

    /// Checks the display, then opens the window on a thread of its own; returns once it is open.
    ///
    /// - Parameter title: The window's title, unique in the process.
    /// - Throws: ``PreviewWindowError`` when there is no display or the window cannot be opened.
    public init(title: String) throws(PreviewWindowError) {
        let screen = try Self.checkDisplay()
        (events, continuation) = AsyncStream.makeStream(of: Event.self)
        let opened = DispatchSemaphore(value: 0)
        // The fitting leaves room for the window's frame and a panel on the screen.
        let limit = (width: Int32(screen.width * 9 / 10), height: Int32(screen.height * 9 / 10))
        let thread = Thread { [self] in
            defer {
                continuation.finish()
                finished.signal()
            }
            var error = shim_error()
            var window: OpaquePointer?
            guard mpw_window_open(title, &window, &error) == .SHIM_STATUS_OK, let window else {
                mailbox.withLock { m in
                    m.ended = true
                    m.openFailure = PreviewWindowError(error.status, error)
                }
                opened.signal()
                return
            }
            opened.signal()
            runLoop(window, limit: limit)
        }
        thread.name = "marker-shutter preview"
        thread.start()
        opened.wait()
        if let failure = mailbox.withLock({ $0.openFailure }) {
            finished.wait()
            throw failure
        }
    }

    /// Hands a frame to the window, replacing one still waiting; never blocks. Dropped once the
    /// window is closed.
    public func show(_ frame: Frame) {
        hand(.frame(frame))
    }

    /// Hands the window a picture that `make` draws, on the window's thread and only if the
    /// picture is still the newest when the window gets to it (a rig's cameras put side by side,
    /// drawn no more often than the window shows them). Replaces a frame still waiting; never blocks.
    ///
    /// - Parameter make: Returns the picture to show as it is (BGR24 or GRAY8); what it throws is
    ///   reported as ``Event/failed(_:)``.
    public func show(making make: @escaping @Sendable () throws -> PixelBuffer) {
        hand(.picture(make))
    }

    private func hand(_ pending: Pending) {
        mailbox.withLock { m in
            if m.ended || m.closing {
                m.dropped += 1
                return
            }
            if m.waiting != nil { m.dropped += 1 }
            m.waiting = pending
        }
    }

    /// Frames shown so far.
    public var framesShown: Int { mailbox.withLock { $0.shown } }

    /// Frames handed in that were never shown: replaced by a newer one, or after the window closed.
    public var framesDropped: Int { mailbox.withLock { $0.dropped } }

    /// Closes the window and waits for its thread to end. Later calls do nothing.
    public func close() {
        let first = mailbox.withLock { m -> Bool in
            defer { m.closing = true }
            return !m.closing
        }
        guard first else { return }
        finished.wait()
        finished.signal()  // for a close() that races this one: it returned early, nothing to wake
    }

    /// The window's thread: shows the newest frame, runs the event loop, reports keys and closing.
    private func runLoop(_ window: OpaquePointer, limit: (width: Int32, height: Int32)) {
        var reportedFailure = false
        defer { mpw_window_close(window) }
        while true {
            let (frame, closing) = mailbox.withLock { m -> (Pending?, Bool) in
                defer { m.waiting = nil }
                return (m.waiting, m.closing)
            }
            if closing { break }
            if let frame {
                do throws(PreviewWindowError) {
                    try Self.show(frame, in: window, limit: limit)
                    mailbox.withLock { $0.shown += 1 }
                } catch {
                    mailbox.withLock { $0.dropped += 1 }
                    if !reportedFailure { continuation.yield(.failed(error.description)) }
                    reportedFailure = true
                }
            }
            var key: Int32 = -1, open: Int32 = 1
            var error = shim_error()
            if mpw_window_poll(window, Self.pollMilliseconds, &key, &open, &error) != .SHIM_STATUS_OK {
                continuation.yield(.failed(PreviewWindowError(error.status, error).description))
                open = 0
            }
            if let event = Event(key: key) { continuation.yield(event) }
            if open == 0 {
                mailbox.withLock { m in
                    m.ended = true
                    if m.waiting != nil { m.dropped += 1 }
                    m.waiting = nil
                }
                continuation.yield(.closed)
                return
            }
        }
    }

    /// Draws `frame`'s detection and badge on a copy, or makes the picture, and shows it.
    private static func show(_ pending: Pending, in window: OpaquePointer, limit: (width: Int32, height: Int32))
        throws(PreviewWindowError)
    {
        let drawn: PixelBuffer
        do {
            switch pending {
            case .frame(let frame): drawn = try Annotation.draw(frame.detection, on: frame.pixels, badge: frame.badge)
            case .picture(let make): drawn = try make()
            }
        } catch {
            throw .drawing("\(error)")
        }
        var error = shim_error()
        let status = drawn.withUnsafeBytes { bytes in
            var pixels = shim_pixels(data: bytes.baseAddress, width: Int32(drawn.width), height: Int32(drawn.height),
                                     row_stride: drawn.rowStride, format: drawn.format.shimFormat)
            return mpw_window_show(window, &pixels, limit.width, limit.height, &error)
        }
        guard status == .SHIM_STATUS_OK else { throw PreviewWindowError(status, error) }
    }
}

extension PreviewWindow.Event {
    /// The event for a key code from highgui: Space or Enter captures, `q` quits, others are ignored.
    init?(key: Int32) {
        guard key >= 0 else { return nil }
        switch key & 0xFF {
        case 0x20, 0x0D, 0x0A: self = .capture
        case 0x71, 0x51: self = .quit  // q, Q
        default: return nil
        }
    }
}

/// The preview window could not be used.
public enum PreviewWindowError: Error, Equatable, CustomStringConvertible {
    /// No X11 display: the reason (DISPLAY unset, or its server not answering).
    case noDisplay(String)
    /// The window could not be opened or a frame shown.
    case window(String)
    /// A frame's detection or badge could not be drawn.
    case drawing(String)

    init(_ status: shim_status, _ error: shim_error) {
        let failure = ShimFailure(error)
        self = status == .SHIM_STATUS_NO_DISPLAY ? .noDisplay(failure.message) : .window(failure.message)
    }

    public var description: String {
        switch self {
        case .noDisplay(let reason): "no display: \(reason)"
        case .window(let reason): "preview window: \(reason)"
        case .drawing(let reason): "preview window: the frame could not be drawn: \(reason)"
        }
    }
}
