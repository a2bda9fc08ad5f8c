import Foundation

/// The cap a temporary copy would pass (a zip inside a zip, a zip on standard input, a database
/// in a zip or beside its write-ahead log): each is checked before the copy and while it is
/// written, so that a small hostile zip cannot fill the disk (docs/reliability.md).
public enum CopyLimit: Equatable, Sendable {
    /// The entry inflates to more than the size its zip declares (`declared` bytes).
    case declaredSize(declared: Int64)
    /// The entry is more than `ratio` times its `compressed` size and more than the `floor`
    /// every entry may have: a zip bomb, or an export nobody makes.
    case compressionRatio(compressed: Int64, ratio: Int64, floor: Int64)
    /// The temporary folder's file system has `available` bytes free, of which `reserve` are kept free.
    case room(folder: String, available: Int64, reserve: Int64)
}
