import ArgumentParser
import Foundation
import MarkerDetection
import MarkerShutter
import Pixels

/// `--pattern auto` and `board --identify`: the target identified from the first frames or the
/// photos given, what was found said on standard error.
enum PatternChoice {
    /// The word that asks for identification.
    static let auto = "auto"

    /// The help line for `--pattern auto`.
    static let help = """
        auto                                       identify the target from the first frames
                                                   (says what was found; stops when unsure)
        """

    /// The identifier, or a failure a user can act on.
    private static func identifier() throws -> PatternIdentifier {
        do {
            return try PatternIdentifier()
        } catch {
            throw RuntimeError("cannot identify the target: \(error)")
        }
    }

    /// What `photos` show; photos that cannot be read are named on standard error and passed over.
    static func identify(photos: [String]) throws -> PatternIdentification {
        let identifier = try identifier()
        let found: (identification: PatternIdentification, files: [String])
        do {
            found = try identifier.identify(imageFiles: photos, limit: photos.count)
        } catch {
            throw RuntimeError("cannot identify the target: \(error)")
        }
        for photo in photos where !found.files.contains(photo) {
            FileHandle.standardError.write(FileNameText.escaped("note: \(photo) is not an image that can be read") + "\n")
        }
        if found.files.isEmpty { throw RuntimeError("none of the \(photos.count) photos could be read") }
        return found.identification
    }

    /// The target `images` (the first readable frames of `source`) show: `source: found PATTERN in
    /// N of M frames` on standard error.
    ///
    /// - Throws: `RuntimeError` with the doubt and the candidates when the frames leave doubt.
    static func identified(inImages images: [PixelBuffer], source: String) throws -> Pattern {
        let identification: PatternIdentification
        do {
            identification = try identifier().identify(images)
        } catch let error as RuntimeError {
            throw error
        } catch {
            throw RuntimeError("cannot identify the target: \(error)")
        }
        return try accepted(identification, source: source)
    }

    /// The identification's pattern, said on standard error; a doubt as a failure.
    static func accepted(_ identification: PatternIdentification, source: String) throws -> Pattern {
        guard let pattern = identification.pattern else {
            throw RuntimeError(FileNameText.escaped("\(source): \(identification)") + "\nname the target with --pattern")
        }
        FileHandle.standardError.write(FileNameText.escaped("\(source): \(identification)") + "\n")
        return pattern
    }
}
