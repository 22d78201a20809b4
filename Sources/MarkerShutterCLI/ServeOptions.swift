import ArgumentParser
import BrowserView
import MarkerShutter

/// `--serve`, `--token`, `--view-fps` and `--wait-for-viewer`: the live view in a browser.
struct ServeOptions: ParsableArguments {
    /// The frame rates `--view-fps` may take.
    static let viewRates = AllowedRange(ViewServer.Configuration.viewFPSRange, unit: "frames per second")

    @Option(help: ArgumentHelp(
        "Serve the live view to a browser at [ADDRESS:]PORT (address 127.0.0.1 unless given; port 0: any free port). "
            + "Any other address lets anyone who can reach it watch and take pictures: use --token there.",
        valueName: "[address:]port"))
    var serve: String?

    @Option(help: ArgumentHelp("With --serve: a token every request must carry (?token= in the page's address).",
                               valueName: "token"))
    var token: String?

    @Option(name: .customLong("view-fps"), parsing: .unconditional,
            help: "With --serve: the most frames per second sent to each viewer (\(viewRates)).",
            transform: viewRates.parse(option: "--view-fps"))
    var viewFPS: Int = 15

    @Flag(name: .customLong("wait-for-viewer"),
          help: "With --serve: open the camera or start the replay only once a browser has the page open.")
    var waitForViewer = false

    /// Where to serve, or nil without `--serve`.
    var address: ServeAddress? {
        get throws(ServeAddressError) { try serve.map { text throws(ServeAddressError) in try ServeAddress(parsing: text) } }
    }

    func validate() throws {
        do { _ = try address } catch { throw ValidationError("--serve: \(error)") }
        guard serve != nil else {
            if token != nil { throw ValidationError("--token goes with --serve") }
            if waitForViewer { throw ValidationError("--wait-for-viewer goes with --serve") }
            return
        }
        do { _ = try ViewAccess(token: token) } catch { throw ValidationError("--token: \(error)") }
        try Self.viewRates.validate(viewFPS, option: "--view-fps")
    }
}
