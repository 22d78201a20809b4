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

    var sourceRequest: LiveSession.SourceRequest {
        if let replay { return .replay(path: replay, framesPerSecond: Double(fps)) }
        let (width, height) = frameSize!
        return .camera(path: device ?? "/dev/video0",
                       settings: CaptureSettings(width: width, height: height, framesPerSecond: fps, pixelFormat: gray ? .gray8 : .bgr24))
    }
}
