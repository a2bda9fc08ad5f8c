import Foundation

/// Byte counts for people: 1.5 GB, 310.2 MB (decimal units), in every message and report.
public enum ByteCount {
    public static func format(_ bytes: Int64) -> String {
        let value = Double(bytes)
        switch value {
        case 1e9...: return String(format: "%.2f GB", value / 1e9)
        case 1e6...: return String(format: "%.1f MB", value / 1e6)
        case 1e3...: return String(format: "%.1f kB", value / 1e3)
        default: return "\(bytes) B"
        }
    }
}
