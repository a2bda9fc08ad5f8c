import HealthDays
import Platform

/// The caps on every temporary copy stepimport makes (a zip inside a zip, a zip on standard
/// input, a database in a zip or beside its write-ahead log), so that a small hostile zip cannot
/// fill the disk: docs/reliability.md says why these values.
///
/// A copy is refused before its first byte when the entry's declared size passes a cap, and
/// stopped (its partial copy removed) as soon as the bytes written pass one.
public struct TemporaryCopyLimits: Sendable, Equatable {
    /// At most this many times the entry's compressed size: exports compress 1.5 to 30 times
    /// (a database about 1.5, a nested zip 1, XML 10 to 30); deflate reaches 1032.
    public var compressionRatio: Int64
    /// Any entry up to this size passes the ratio (a small database of zeroed free pages compresses far more).
    public var ratioFloor: Int64
    /// Room kept free on the temporary folder's file system: this, or a tenth of the file system when less.
    public var reserve: Int64
    /// Where copies go; nil for `$TMPDIR`, else `/tmp`.
    public var folder: String?

    /// The caps stepimport uses: 100 times, 256 MiB, 128 MiB.
    public static let standard = TemporaryCopyLimits()

    public init(compressionRatio: Int64 = 100, ratioFloor: Int64 = 256 << 20, reserve: Int64 = 128 << 20, folder: String? = nil) {
        self.compressionRatio = compressionRatio
        self.ratioFloor = ratioFloor
        self.reserve = reserve
        self.folder = folder
    }

    /// The folder copies go to.
    public var resolvedFolder: String {
        folder ?? TemporarySpool.folder
    }
}

/// The budget of one copy: what it may grow to, checked before and while it is written.
struct CopyBudget {
    let location: InputLocation
    /// The size the input declares (a zip entry's, a file's), prefix included.
    let declared: Int64?
    /// The entry's compressed size, when it has one.
    let compressed: Int64?
    /// `compressed` times the ratio, at least the floor.
    let ratioCap: Int64?
    let limits: TemporaryCopyLimits
    let folder: String
    /// Free bytes minus the reserve, when the file system says.
    let room: (budget: Int64, available: Int64, reserve: Int64)?

    init(_ stream: ByteStream, prefixCount: Int, folder: String, limits: TemporaryCopyLimits) throws(ExportError) {
        location = stream.location
        self.limits = limits
        self.folder = folder
        declared = stream.totalBytes.map { $0 &+ Int64(prefixCount) }
        compressed = stream.compressedBytes
        ratioCap = compressed.map { compressed in
            let (product, overflow) = compressed.multipliedReportingOverflow(by: max(limits.compressionRatio, 1))
            return max(overflow ? .max : product, limits.ratioFloor)
        }
        if let space = try? FileStatus.room(inFolder: folder) {
            let reserve = min(limits.reserve, space.total / 10)
            room = (space.available - reserve, space.available, reserve)
        } else {
            room = nil
        }
        if let declared { try check(declared, declared: true) }
    }

    /// Throws when `size` bytes (declared, or written so far) pass a cap.
    func check(_ size: Int64, declared isDeclared: Bool = false) throws(ExportError) {
        // A zip entry's declared size binds (a file that grows while it is read is no zip bomb).
        if !isDeclared, compressed != nil, let declared, size > declared {
            throw ExportError.copyRefused(location, size: size, limit: .declaredSize(declared: declared))
        }
        if let ratioCap, let compressed, size > ratioCap {
            throw ExportError.copyRefused(location, size: size,
                                          limit: .compressionRatio(compressed: compressed, ratio: limits.compressionRatio,
                                                                   floor: limits.ratioFloor))
        }
        if let room, size > room.budget {
            throw ExportError.copyRefused(location, size: size,
                                          limit: .room(folder: folder, available: room.available, reserve: room.reserve))
        }
    }
}
