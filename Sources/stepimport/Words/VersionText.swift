import CBuildInfo
import CommandLineKit
import ExportParsers
import HTTPClient

/// `stepimport --version`: the version on the first line (as scripts read it), then what a bug
/// report needs: the commit it was built from and the C libraries it runs with.
enum VersionText {
    static var text: String {
        let commit = String(cString: stepimport_build_commit())
        var lines = [Invocation.program.versionLine]
        lines.append("commit: " + (commit.isEmpty ? "unknown (built without scripts/package)" : commit))
        let libraries = ExportParsersLibrary.libraryVersions + [("libcurl", HTTPClient.libraryVersion)]
        lines += libraries.map { "\($0.name): \($0.version)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
