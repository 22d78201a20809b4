extension SystemCall {
    /// A name the file system gave as bytes, as text: valid UTF-8 as it is, and every byte that is
    /// not part of valid UTF-8 written `\xFF`. Folder listings and manifests both show names so.
    package static func text(ofNameBytes bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var result = ""
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
            if length > 0, index + length <= bytes.count,
               let character = String(validating: bytes[index..<index + length], as: UTF8.self) {
                result += character
                index += length
            } else {
                let hex = String(lead, radix: 16, uppercase: true)
                result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
                index += 1
            }
        }
        return result
    }
}
