// libFuzzer harness over the pattern parser (compiled with Pattern.swift and the types it uses by
// Fuzz/build). A parsed pattern must write itself back in a form that parses to the same pattern.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPattern(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let pattern = try? Pattern(parsing: text) else { return 0 }
    do {
        let again = try Pattern(parsing: pattern.description)
        precondition(again == pattern, "'\(text)' -> '\(pattern.description)' -> '\(again.description)'")
    } catch {
        preconditionFailure("'\(text)' parsed, but its description '\(pattern.description)' does not: \(error)")
    }
    return 0
}
