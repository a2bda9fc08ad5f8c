import Foundation
import Outputs
import Platform

/// The file `--report` names. Its temporary copy is made beside it when the command starts, so a
/// folder that does not exist or cannot be written fails before any work (exit 74) instead of
/// after a whole post or batch; the report is put in place whole at the end, as `-o` puts results.
final class ReportFile {
    /// The path as given.
    let path: String
    private let replacement: FileReplacement

    init(path: String) throws(CommandError) {
        self.path = path
        do {
            replacement = try FileReplacement(replacing: path)
        } catch {
            throw .output(ReportFile.words(path, error))
        }
    }

    /// Writes `data` and renames the file into place. Once: a report is written at the end.
    func write(_ data: Data) throws(CommandError) {
        let descriptor = replacement.file.descriptor
        let failure: SystemError? = data.withUnsafeBytes { bytes in
            do throws(SystemError) {
                try SystemFile.writeAll(bytes, to: descriptor)
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            replacement.discard()
            throw .output("--report " + OutputError.file(path: path, .write, failure).description)
        }
        do {
            try replacement.commit()
        } catch {
            throw .output(ReportFile.words(path, error))
        }
    }

    private static func words(_ path: String, _ failure: FileReplacement.Failure) -> String {
        "--report " + OutputError.file(path: path, failure.step, failure.error).description
    }
}
