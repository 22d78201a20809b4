import Hummingbird
import NIOCore

/// The two long-lived responses: the image stream and the event stream. Each client waits for a
/// newer value and then reads the newest, so a slow client skips values and nothing queues; a
/// client that goes away cancels its loop at once. Each is counted as a stream of its connection's
/// client (``ConnectionLimits/streams``) while it is sent.
extension ViewServer {
    /// The boundary between JPEG parts of `/stream.mjpg`.
    static let boundary = "markershutterframe"

    func mjpegResponse(_ request: Request, on connection: ObjectIdentifier) -> Response {
        longLived(request, on: connection, contentType: "multipart/x-mixed-replace; boundary=\(Self.boundary)", audience: .viewers) { server, writer in
            try await server.streamFrames(to: &writer)
        }
    }

    /// A response whose body `stream` writes until the feed ends; counted in `audience` and as a
    /// stream of `connection` meanwhile, and ended at once, without error, when the client hangs up
    /// (or its connection is closed to make room for a newer stream).
    private func longLived(
        _ request: Request, on connection: ObjectIdentifier, contentType: String, audience: ViewFeed.Audience,
        _ stream: @escaping @Sendable (ViewServer, inout any ResponseBodyWriter) async throws -> Void
    ) -> Response {
        let headers: HTTPFields = [.contentType: contentType, .cacheControl: "no-store"]
        return Response(status: .ok, headers: headers, body: ResponseBody { [self] writer in
            connections.streamBegan(connection)
            defer { connections.streamEnded(connection) }
            feed.joined(audience)
            defer { feed.left(audience) }
            do {
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    try await stream(self, &writer)
                }
            } catch is CancellationError {
                return  // the client went away
            }
            try await writer.finish(nil)
        })
    }

    private func streamFrames(to writer: inout any ResponseBodyWriter) async throws {
        let interval = Duration.seconds(1) / configuration.viewFPS
        var sent = 0
        while true {
            let seen = feed.frames.version
            if feed.frameVersion <= sent {
                if await feed.frames.wait(after: seen) != nil { continue }
                try Task.checkCancellation()
                guard feed.frameVersion > sent else { return }  // finished: the newest was sent
            }
            let encoded: (version: Int, jpeg: [UInt8])?
            do {
                encoded = try await feed.newestJPEG(quality: configuration.jpegQuality)
            } catch {
                sent = feed.frameVersion  // an unencodable frame is skipped; the next one may do
                continue
            }
            guard let encoded else { continue }
            let (version, jpeg) = encoded
            var part = ByteBuffer(string: "--\(Self.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n")
            part.writeBytes(jpeg)
            part.writeString("\r\n")
            try await writer.write(part)
            sent = version
            try await Self.pause(interval, on: configuration.clock)
        }
    }

    private static func pause<C: Clock<Duration>>(_ interval: Duration, on clock: C) async throws {
        try await clock.sleep(for: interval)
    }

    func eventResponse(_ request: Request, on connection: ObjectIdentifier) -> Response {
        longLived(request, on: connection, contentType: "text/event-stream", audience: .listeners) { server, writer in
            try await server.streamEvents(to: &writer)
        }
    }

    private func streamEvents(to writer: inout any ResponseBodyWriter) async throws {
        var seen = feed.updates.version
        var snapshot = feed.snapshot
        var picturesSent = snapshot.picturesTaken
        var changesSent = 0  // a client that joins late gets every phase change kept
        var rigChangesSent = 0  // and every rig change kept
        while true {
            var text = ""
            let newChanges = snapshot.phaseChangeCount - changesSent
            for change in snapshot.phaseChanges.suffix(min(newChanges, snapshot.phaseChanges.count)) {
                text += Self.event("shutter", StateDocument.json(StateDocument.PhaseChange(change)))
            }
            changesSent = snapshot.phaseChangeCount
            let newRigChanges = snapshot.rigChangeCount - rigChangesSent
            for change in snapshot.rigChanges.suffix(min(newRigChanges, snapshot.rigChanges.count)) {
                text += Self.event("rig", StateDocument.json(StateDocument.RigChange(change)))
            }
            rigChangesSent = snapshot.rigChangeCount
            let newPictures = snapshot.picturesTaken - picturesSent
            for picture in snapshot.recent.suffix(min(newPictures, snapshot.recent.count)) {
                text += Self.event("picture", StateDocument.json(StateDocument.Picture(picture, withThumbnail: true)))
            }
            picturesSent = snapshot.picturesTaken
            if snapshot.report != nil || snapshot.rig != nil || snapshot.finishReason != nil {
                text += Self.event("state", StateDocument.json(StateDocument(snapshot, withPictures: false)))
            }
            if let reason = snapshot.finishReason {
                text += Self.event("end", StateDocument.json(["reason": reason]))
            }
            if !text.isEmpty { try await writer.write(ByteBuffer(string: text)) }
            if snapshot.finishReason != nil { return }
            guard let version = await feed.updates.wait(after: seen) else {
                try Task.checkCancellation()
                seen = feed.updates.version
                snapshot = feed.snapshot
                if snapshot.finishReason == nil { return }
                continue
            }
            seen = version
            snapshot = feed.snapshot
        }
    }

    /// One Server-Sent Event; `data` is one line of JSON.
    static func event(_ name: String, _ data: String) -> String {
        "event: \(name)\ndata: \(data)\n\n"
    }
}
