import ArgumentParser
import BrowserView
import MarkerShutter

/// `--serve`, `--token`, `--no-token`, `--allow-host`, `--view-fps` and `--wait-for-viewer`: the
/// live view in a browser.
struct ServeOptions: ParsableArguments {
    /// The frame rates `--view-fps` may take.
    static let viewRates = AllowedRange(ViewServer.Configuration.viewFPSRange, unit: "frames per second")

    @Option(help: ArgumentHelp(
        "Serve the live view to a browser at [ADDRESS:]PORT (address 127.0.0.1 unless given; port 0: any free port). "
            + "Any other address lets whoever reaches it watch and take pictures, so it needs --token (or --no-token). "
            + "Requests must name this server in their Host: the address they arrived at, localhost on loopback, "
            + "this machine's host name off loopback, or an --allow-host name (any port, for tunnels); "
            + "a request that takes a picture or stops must come from the view's own page. "
            + "At most \(ConnectionLimits.largestMaximum) connections (a quarter of the open-file limit when that is fewer), "
            + "\(ConnectionLimits.defaultPerClient) from one address; the longest idle is closed to make room. "
            + "At most a quarter of those stream images or events, \(ConnectionLimits.defaultStreamsPerClient) to one address "
            + "(a new one ends the oldest); a client that leaves a write unread for "
            + "\(ViewServer.Configuration.defaultWriteDeadline.components.seconds) s is disconnected.",
        valueName: "[address:]port"))
    var serve: String?

    @Option(help: ArgumentHelp("With --serve: a token every request must carry (?token= in the page's address).",
                               valueName: "token"))
    var token: String?

    @Flag(name: .customLong("no-token"), help: ArgumentHelp(
        "With --serve on an address other than loopback: serve without a token. Warning: then anyone who "
            + "can reach the address can watch the camera, take pictures and stop the session."))
    var noToken = false

    @Option(name: .customLong("allow-host"), help: ArgumentHelp(
        "With --serve: also answer requests whose Host is NAME (a name or address, no port), for a name "
            + "this machine is reached by or a proxy in front; repeatable.", valueName: "name"))
    var allowHost: [String] = []

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
        let address: ServeAddress?
        do { address = try self.address } catch { throw ValidationError("--serve: \(error)") }
        guard let address else {
            if token != nil { throw ValidationError("--token goes with --serve") }
            if noToken { throw ValidationError("--no-token goes with --serve") }
            if !allowHost.isEmpty { throw ValidationError("--allow-host goes with --serve") }
            if waitForViewer { throw ValidationError("--wait-for-viewer goes with --serve") }
            return
        }
        do { _ = try ViewAccess(token: token) } catch { throw ValidationError("--token: \(error)") }
        if token != nil, noToken { throw ValidationError("--token and --no-token exclude each other") }
        if !address.isLoopback, token == nil, !noToken {
            throw ValidationError("--serve \(address) can be reached from other machines: give --token TOKEN so that only "
                + "the page address with it works, or --no-token to let anyone who reaches it watch and take pictures")
        }
        do { _ = try HostPolicy(address: address, allowing: allowHost) } catch { throw ValidationError("--allow-host: \(error)") }
        try Self.viewRates.validate(viewFPS, option: "--view-fps")
    }
}
