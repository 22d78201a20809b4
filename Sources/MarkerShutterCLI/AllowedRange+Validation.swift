import ArgumentParser
import MarkerShutter

extension AllowedRange {
    /// Checks an option's value, as a usage error naming the option, the value and the range.
    func validate(_ value: Value?, option: String) throws {
        guard let value else { return }
        do {
            try check(value, name: option)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
