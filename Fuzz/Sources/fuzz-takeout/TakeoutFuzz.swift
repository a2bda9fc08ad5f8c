import Foundation
import ExportParsers
import FuzzSupport
import HealthDays

/// Google Fit Takeout as a folder: the input describes up to eight files, which are written into
/// a fresh folder (removed after the run), and the importer reads the folder:
/// the opener's walk, `TakeoutPlan` (which of Takeout's three copies of the steps to read: the
/// daily summary, the per-day CSVs or the `estimated_steps` stream), then the CSV and JSON
/// readers on the files it chose.
///
/// Input: files separated by a NUL byte; in each, the first line is the path inside the folder
/// (cleaned: only letters, digits, space and `._()-`, no `..`, at most 6 levels), the rest its
/// content. `Fuzz/corpus/fuzz-takeout/` has seeds in this form.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTakeout(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let folder = fuzzScratchFolder + "/takeout"
    try? FileManager.default.removeItem(atPath: folder)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else {
        preconditionFailure("cannot create \(folder)")
    }
    var written = 0
    for part in input.bytes.split(separator: 0, omittingEmptySubsequences: true).prefix(8) {
        let nameEnd = part.firstIndex(of: 0x0A) ?? part.endIndex
        let content = nameEnd < part.endIndex ? Data(part[(nameEnd + 1)...]) : Data()
        guard let name = cleanPath(part[..<nameEnd]) else { continue }
        let path = folder + "/" + name
        let parent = (path as NSString).deletingLastPathComponent
        // A name may clash with a folder made for another (`a` and `a/b`): such a file is left out.
        guard (try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)) != nil,
              FileManager.default.createFile(atPath: path, contents: content)
        else { continue }
        written += 1
    }
    guard written > 0 else { return 0 }
    let aggregator = DayAggregator(rule: input.zoneRule)
    do throws(ExportError) {
        let summary = try ExportImporter.open(path: folder, as: .family(.android))
            .read(into: aggregator, options: ImportOptions(invalidRecords: input.policy)).summary
        blackHole(summary)
    } catch {
        blackHole(error.description)
        return 0
    }
    totalDays(aggregator)
    return 0
}

/// A relative path that stays inside the folder, or nil.
func cleanPath(_ bytes: ArraySlice<UInt8>) -> String? {
    let allowed = Set(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._()-".utf8))
    let parts = bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).prefix(6).map { part in
        String(decoding: part.filter { allowed.contains($0) }.prefix(80), as: UTF8.self)
    }.filter { !$0.isEmpty && $0 != "." && $0 != ".." }
    return parts.isEmpty ? nil : parts.joined(separator: "/")
}
