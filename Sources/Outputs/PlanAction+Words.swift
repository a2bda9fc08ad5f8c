import BackendUpload

extension PlanAction {
    /// The action column of the `--plan` table.
    public var words: String {
        switch self {
        case .keep: return "keep: the server has a value (--keep-existing)"
        case .same: return "same"
        case .overwrite(let lower): return lower ? "overwrite (lower)" : "overwrite"
        case .write: return "write"
        case .skip: return "skip: older than the server's window, the server will not write it"
        }
    }

    /// The action as `--plan --format json|csv` names it.
    public var code: String {
        switch self {
        case .keep: return "keep"
        case .same: return "same"
        case .overwrite: return "overwrite"
        case .write: return "write"
        case .skip: return "skip"
        }
    }
}
