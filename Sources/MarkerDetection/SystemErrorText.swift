#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Readable text for an errno value, for error descriptions.
enum SystemErrorText {
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return "\(String(cString: text)) (errno \(code))"
    }
}
