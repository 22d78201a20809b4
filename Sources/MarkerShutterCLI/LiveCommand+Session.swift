import ArgumentParser
import BrowserView
import FrameCapture
import MarkerShutter

extension LiveCommand {
    /// With `--serve`: listens, says where, and with `--wait-for-viewer` waits for the page.
    func startBrowserView(console: Console, interruption: InterruptFlag) async throws -> BrowserServing? {
        guard let address = try view.address else { return nil }
        if let warning = address.exposureWarning(token: view.token) { console.message(warning) }
        let browser = try await BrowserServing(view, address: address, hold: detection.holdDuration)
        console.message("browser view: \(browser.pageURL)")
        if view.waitForViewer {
            console.message("waiting for a browser to open the page (Ctrl-C to quit)")
            interruption.onInterrupt { name in Task { await browser.finish(reason: name) } }
            await browser.waitForViewer()
            if interruption.isSet {
                await browser.finish(reason: "interrupted")
                throw ExitCode(130)
            }
        }
        return browser
    }

    /// The one camera `--device` or `--replay` gives.
    func sourceRequest() throws -> LiveSession.SourceRequest {
        if let replay { return .replay(path: replay, framesPerSecond: Double(fps)) }
        return .camera(path: device ?? "/dev/video0", request: Self.cameraRequest(captureSettings, controls: try cameraControls.settings))
    }

    /// What `--size`, `--fps`, `--gray` and `--camera-format` ask a camera for (checked by `validate()`).
    var captureSettings: CaptureSettings {
        let (width, height) = frameSize ?? (1280, 720)
        return CaptureSettings(width: width, height: height, framesPerSecond: fps, pixelFormat: gray ? .gray8 : .bgr24,
                               cameraFormat: cameraFormat.flatMap { Self.cameraFourCC($0) })
    }

    /// A camera's settings and controls as the options read them, in the session's words.
    static func cameraRequest(_ settings: CaptureSettings, controls: ControlSettings) -> CameraRequest {
        func mode(_ mode: ControlSettings.Mode) -> CameraControls.Mode {
            switch mode {
            case .automatic: .automatic
            case .manual(let value): .manual(value)
            }
        }
        return CameraRequest(
            width: settings.width, height: settings.height, framesPerSecond: settings.framesPerSecond, gray: settings.pixelFormat == .gray8,
            cameraFormat: settings.cameraFormat?.description,
            controls: CameraControls(exposure: controls.exposure.map(mode), focus: controls.focus.map(mode),
                                     named: controls.controls.map { CameraControls.Assignment(name: $0.name, value: $0.value) },
                                     lock: controls.lock))
    }

    /// A camera's own format as given (`mjpg` is `MJPG`): four printable ASCII characters, else nil.
    static func cameraFourCC(_ text: String) -> FourCC? {
        let upper = text.uppercased()
        guard upper.utf8.allSatisfy({ (0x20...0x7e).contains($0) }) else { return nil }
        return FourCC(upper)
    }
}
