/// Interns source names so that each is decoded and stored once, however many samples name it.
///
/// Exports name a handful of sources millions of times; a linear scan over the few known
/// names (comparing bytes) answers without allocating, and a dictionary takes over when
/// an input has many sources. Record type names are interned the same way (`stepimport inspect`).
public struct SourceTable: Sendable {
    public private(set) var names: [String] = []
    private var utf8Names: [[UInt8]] = []
    private var index: [[UInt8]: Int32] = [:]
    private var lastID: Int32 = -1
    /// How many times each id was asked for (the records of each source, for a caller that
    /// asks once a record): counted inside the same access that finds the id, so it costs no
    /// second exclusive access of the table.
    public private(set) var uses: [Int] = []
    private static let linearLimit = 32

    public init() {}

    /// The id of the source spelled by these UTF-8 bytes, adding it when new.
    public mutating func id(forUTF8 bytes: UnsafeRawBufferPointer) -> Int32 {
        if lastID >= 0 && equal(utf8Names[Int(lastID)], bytes) {
            uses[Int(lastID)] &+= 1
            return lastID
        }
        if utf8Names.count <= SourceTable.linearLimit {
            for (candidate, name) in utf8Names.enumerated() where equal(name, bytes) {
                lastID = Int32(candidate)
                uses[candidate] &+= 1
                return lastID
            }
        } else if let known = index[Array(bytes)] {
            lastID = known
            uses[Int(known)] &+= 1
            return known
        }
        return add(Array(bytes))
    }

    /// The id of a source given as a string, adding it when new.
    public mutating func id(for name: String) -> Int32 {
        var name = name
        return name.withUTF8 { id(forUTF8: UnsafeRawBufferPointer($0)) }
    }

    /// Adds the names and uses of another table (a later part of the same input, read apart).
    public mutating func add(_ other: SourceTable) {
        for (name, count) in zip(other.names, other.uses) {
            let id = Int(id(for: name))
            uses[id] &+= count &- 1
        }
    }

    private mutating func add(_ bytes: [UInt8]) -> Int32 {
        let newID = Int32(names.count)
        names.append(String(decoding: bytes, as: UTF8.self))
        utf8Names.append(bytes)
        uses.append(1)
        index[bytes] = newID
        lastID = newID
        return newID
    }

    @inline(__always)
    private func equal(_ name: [UInt8], _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard name.count == bytes.count else { return false }
        return name.withUnsafeBytes { stored in
            bytes.count == 0 || memcmp(stored.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
    }
}

import Glibc
