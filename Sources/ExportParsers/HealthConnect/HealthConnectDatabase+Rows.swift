import CSQLite
import HealthDays

extension HealthConnectDatabase {
    /// The checks of one table's columns as its rows are read: whole numbers, UTC offsets and
    /// values, each refusing a row it cannot use with the table, the row and the problem named
    /// (`InvalidRecordPolicy`: the read stops, or the row is skipped and counted).
    ///
    /// A class: the row closures capture it, and a captured `var` struct costs a dynamic
    /// exclusivity check per column (+2.5% instructions on a 200,000-row database).
    final class RowCheck {
        let table: String
        let statement: Statement
        let policy: InvalidRecordPolicy
        let location: InputLocation
        var skipped = SkippedRecords()

        /// Health Connect's `ZoneOffset` range, ±18 hours in seconds: the bound of a counted offset.
        static let offsetRange = -Int64(UTCOffset.maximumSeconds)...Int64(UTCOffset.maximumSeconds)

        init(table: String, statement: Statement, policy: InvalidRecordPolicy, location: InputLocation) {
            self.table = table
            self.statement = statement
            self.policy = policy
            self.location = location
        }

        /// Refuses the row: throws under `.fail`, counts it under `.skip`.
        func invalid(_ rowID: Int64, _ problem: String) throws(ExportError) {
            if let failure = policy.reject(at: .none, "\(table) row_id \(rowID): \(problem)", skipped: &skipped) {
                throw ExportError.invalidRecord(location, at: .none, problem: failure.message)
            }
        }

        /// A column that must hold a whole number; nil (after refusing the row) when it does not.
        ///
        /// `rowID` is read only to word a refusal: the step read asks SQLite for it only then.
        @inline(__always)
        func integer(_ column: Int32, _ name: String, _ rowID: @autoclosure () -> Int64) throws(ExportError) -> Int64? {
            let cell = statement.value(column)
            switch cell.type {
            case SQLITE_INTEGER:
                return cell.int64
            case SQLITE_NULL:
                try invalid(rowID(), "\(name) is NULL")
            default:
                try invalid(rowID(), "\(name) is \"\(statement.text(column))\", not a whole number")
            }
            return nil
        }

        /// An offset column: `.some(nil)` for NULL, nil (after refusing the row) when unusable.
        @inline(__always)
        func offset(_ column: Int32, _ name: String, _ rowID: @autoclosure () -> Int64) throws(ExportError) -> Int32?? {
            let cell = statement.value(column)
            switch cell.type {
            case SQLITE_NULL:
                return .some(nil)
            case SQLITE_INTEGER:
                let value = cell.int64
                if RowCheck.offsetRange.contains(value) { return Int32(value) }
                try invalid(rowID(), "\(name) \(value) is not a UTC offset in seconds "
                                   + "(\(RowCheck.offsetRange.lowerBound) to \(RowCheck.offsetRange.upperBound))")
            default:
                try invalid(rowID(), "\(name) is \"\(statement.text(column))\", not a UTC offset in seconds")
            }
            return nil
        }

        /// A column that must hold a non-negative number (whole or not); nil after refusing the row.
        @inline(__always)
        func number(_ column: Int32, _ name: String, _ rowID: @autoclosure () -> Int64) throws(ExportError) -> Double? {
            let cell = statement.value(column)
            switch cell.type {
            case SQLITE_INTEGER:
                let value = cell.int64
                guard value >= 0 else {
                    try invalid(rowID(), "\(name) \(value) is negative")
                    return nil
                }
                return Double(value)
            case SQLITE_FLOAT:
                let value = cell.double
                guard value.isFinite, value >= 0 else {
                    try invalid(rowID(), "\(name) \(value) is not a non-negative number")
                    return nil
                }
                return value
            case SQLITE_NULL:
                try invalid(rowID(), "\(name) is NULL")
            default:
                try invalid(rowID(), "\(name) is \"\(statement.text(column))\", not a number")
            }
            return nil
        }
    }
}
