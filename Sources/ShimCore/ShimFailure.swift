// The one reader of the error record every C shim fills (shim_error, CShimCore.h). Each module
// turns a ShimFailure into its own error type; this file knows none of them.

package import CShimCore

/// A failed shim call: the status, the shim that reported it, and what it said.
package struct ShimFailure: Error, Sendable {
    /// What failed, as the shim classed it.
    package let status: shim_status
    /// The shim that filled the record.
    package let area: shim_area
    /// errno of the failed system call for `SHIM_STATUS_IO`, otherwise 0.
    package let systemErrno: Int32
    /// The image size refused (`SHIM_STATUS_TOO_MANY_PIXELS`, `SHIM_STATUS_IMAGE_TOO_SMALL`).
    package let width: Int
    package let height: Int
    /// The size of the file refused (`SHIM_STATUS_FILE_TOO_LARGE`).
    package let fileBytes: Int
    /// What the shim said, readable by a person.
    package let message: String

    /// Reads a record a shim filled.
    package init(_ record: shim_error) {
        status = record.status
        area = record.area
        systemErrno = record.system_errno
        width = Int(record.width)
        height = Int(record.height)
        fileBytes = Int(record.file_bytes)
        message = withUnsafeBytes(of: record.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// A failure found on the Swift side of a shim, before or after the call.
    package init(status: shim_status, area: shim_area, message: String) {
        self.status = status
        self.area = area
        self.systemErrno = 0
        self.width = 0
        self.height = 0
        self.fileBytes = 0
        self.message = message
    }

    /// Calls `body` with an empty error record and throws what it says when `body` returns a
    /// status other than `SHIM_STATUS_OK`.
    package static func check(_ body: (UnsafeMutablePointer<shim_error>) -> shim_status) throws(ShimFailure) {
        var record = shim_error()
        let status = body(&record)
        guard status != .SHIM_STATUS_OK else { return }
        // The record is optional for a shim; a status with an untouched record still fails.
        if record.status == .SHIM_STATUS_OK { record.status = status }
        throw ShimFailure(record)
    }
}
