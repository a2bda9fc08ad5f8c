import HealthDays

/// react-native's `metadata.lastModifiedTime`, read only for `--rule hc-priority` (where it breaks
/// ties between records of one app) and kept beside the step fields, off every other read's path.
extension AppDumpJSONParser.Assembler {
    /// A new object or array at `depth`: no last-modified time yet.
    @inline(never)
    func noteModifiedFrame() {
        if modified.count <= depth {
            modified.append(.min)
        } else {
            modified[depth] = .min
        }
    }

    /// `lastModifiedTime` of the object at `frame`: an ISO 8601 time; one that cannot be read (or
    /// is not a string) has no say in ties, as if absent.
    @inline(never)
    func noteModified(_ kind: AppDumpJSONParser.ValueKind, _ bytes: UnsafeRawBufferPointer, of frame: Int) {
        guard frame < modified.count else { return }
        modified[frame] = kind == .string ? Timestamp.parse(bytes)?.ms ?? .min : .min
    }

    /// A `metadata` object ends: its time goes to the record around it, unless the record has its own.
    @inline(never)
    func passModifiedUp(from index: Int, to target: Int) {
        if modified[target] == .min { modified[target] = modified[index] }
    }
}
