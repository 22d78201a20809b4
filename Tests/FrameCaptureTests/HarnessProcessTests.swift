import EmulatedCameraHarness
import Foundation
import Testing

extension EmulatedCameraTests {
    /// The harness's wait for a program's output: woken when the text comes, told when the program
    /// ends without it, and failing after its time limit, with what the program printed so far.
    @Suite struct HarnessProcessTests {
        @Test func textPrintedLaterWakesTheWait() async throws {
            let harness = try await makeHarness()
            let process = try harness.start("/bin/sh", ["-c", "read line; echo \"got $line\"; echo done >&2; read again; exit 0"])
            process.sendLine("first")
            try await process.waitForOutput(containing: "got first", timeout: .seconds(60))
            try await process.waitForOutput(containing: "done", on: .standardError, timeout: .seconds(60))
            process.closeInput()
            #expect(try await process.wait(timeout: .seconds(60)).status == 0)
        }

        @Test func aProgramThatEndsWithoutTheTextFailsTheWaitAndShowsItsOutput() async throws {
            let harness = try await makeHarness()
            let process = try harness.start("/bin/sh", ["-c", "echo something else; echo why >&2"])
            let error = await #expect(throws: (any Error).self) {
                try await process.waitForOutput(containing: "never printed", timeout: .seconds(600))
            }
            let text = "\(error.map { "\($0)" } ?? "")"
            #expect(text.hasPrefix("the program ended before printing never printed; standard output ends:\nsomething else\n"), "\(text)")
            #expect(text.contains("standard error ends:\nwhy\n"), "\(text)")
        }

        @Test func aWaitFailsAfterItsTimeLimit() async throws {
            let harness = try await makeHarness()
            let process = try harness.start("/bin/sh", ["-c", "echo waiting; read line; exit 0"])
            let error = await #expect(throws: (any Error).self) {
                try await process.waitForOutput(containing: "never printed", timeout: .milliseconds(200))
            }
            #expect("\(error.map { "\($0)" } ?? "")".hasPrefix("no never printed within 0.2 seconds"), "\(String(describing: error))")
            process.closeInput()
            #expect(try await process.wait(timeout: .seconds(60)).status == 0)
        }
    }
}
