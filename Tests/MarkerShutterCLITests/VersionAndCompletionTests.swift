import Foundation
import Testing

/// `marker-shutter --version` and `--generate-completion-script`, run as a user runs them.
@Suite struct VersionAndCompletionTests {
    static let commands = ["process", "merge", "live", "calibrate", "compare", "board", "devices"]

    @Test func versionPrintsTheToolAndTheLibrariesItRunsWith() throws {
        let result = try MarkerShutterBinary.run(["--version"])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == 5, "\(lines)")  // four lines and the final newline
        guard lines.count == 5 else { return }
        #expect(lines[0].wholeMatch(of: /marker-shutter [0-9]+\.[0-9]+\.[0-9]+/) != nil, "\(lines[0])")
        // Debian bookworm's OpenCV, asked at run time; the same as compiled against, so one version.
        #expect(lines[1].wholeMatch(of: /OpenCV 4\.6\.[0-9]+/) != nil, "\(lines[1])")
        #expect(lines[2].wholeMatch(
            of: /libapriltag 3\.[0-9]+\.[0-9]+ \(no version call; named by its file, \/.*\/libapriltag\.so\.3\.[0-9.]+\)/)
            != nil, "\(lines[2])")
        #expect(lines[3].wholeMatch(of: /libv4l2 \(no version call; loaded from \/.*\/libv4l2\.so\.0[0-9.]*\)/) != nil,
                "\(lines[3])")
        #expect(lines[4].isEmpty)
    }

    @Test func aCommandsVersionIsTheToolsVersion() throws {
        let root = try MarkerShutterBinary.run(["--version"])
        let process = try MarkerShutterBinary.run(["process", "--version"])
        #expect(process.status == 0)
        #expect(process.standardOutput == root.standardOutput)
    }

    @Test func bashCompletionIsRegisteredForTheToolAndNamesEveryCommand() throws {
        let result = try MarkerShutterBinary.run(["--generate-completion-script", "bash"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("\ncomplete -o filenames -F _marker-shutter marker-shutter\n"))
        #expect(result.standardOutput.contains(
            "COMPREPLY+=($(compgen -W '\(Self.commands.joined(separator: " ")) help' -- \"${cur}\"))"))
    }

    @Test func zshCompletionIsACompdefForTheTool() throws {
        let result = try MarkerShutterBinary.run(["--generate-completion-script", "zsh"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("#compdef marker-shutter\n"))
        for command in Self.commands {
            #expect(result.standardOutput.contains("'\(command):"), "\(command)")
        }
    }

    @Test func fishCompletionOffersEveryCommand() throws {
        let result = try MarkerShutterBinary.run(["--generate-completion-script", "fish"])
        #expect(result.status == 0)
        for command in Self.commands {
            #expect(result.standardOutput.contains("complete -c 'marker-shutter' -n '__marker-shutter_should_offer_completions_for_positional \"marker-shutter\" -eq 1' -fa '\(command)'"), "\(command)")
        }
    }

    @Test func anUnknownShellIsAUsageError() throws {
        let result = try MarkerShutterBinary.run(["--generate-completion-script", "powershell"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("Can't generate completion scripts for 'powershell'"))
        #expect(result.standardOutput.isEmpty)
    }

    /// Bash itself completes `marker-shutter pro<TAB>` with the generated script, as it would at
    /// a prompt: the function `complete` registered, called with the words typed so far.
    @Test(arguments: [
        ("pro", ["process"]),
        ("", ["--version", "-h", "--help", "process", "merge", "live", "calibrate", "compare", "board", "devices", "help"]),
        ("process --ann", ["--annotate"]),
    ])
    func bashCompletesWhatIsTyped(typed: String, expected: [String]) throws {
        let scratch = try MarkerShutterBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let script = try MarkerShutterBinary.run(["--generate-completion-script", "bash"])
        try script.standardOutput.write(toFile: scratch + "/marker-shutter.bash", atomically: true, encoding: .utf8)
        let driver = """
            source "$1"
            function=$(complete -p marker-shutter | sed -n 's/.* -F \\([^ ]*\\) .*/\\1/p')
            COMP_LINE="marker-shutter $2"; COMP_POINT=${#COMP_LINE}
            read -r -a COMP_WORDS <<< "$COMP_LINE"
            [ "${COMP_LINE: -1}" = " " ] || [ -z "$2" ] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            "$function" marker-shutter "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", driver, "bash", scratch + "/marker-shutter.bash", typed]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(printed.split(separator: "\n").map(String.init) == expected, "\(printed)")
    }
}
