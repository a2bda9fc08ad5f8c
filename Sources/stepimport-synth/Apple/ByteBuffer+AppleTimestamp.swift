/// The export-time offset that Apple writes on every timestamp of the file:
/// the owner's offset when the export was made (Berlin winter time), whatever
/// the offset was when the sample was recorded.
let appleExportOffsetSeconds: Int64 = 3600

extension ByteBuffer {
    /// `yyyy-MM-dd HH:mm:ss +0100`, Apple's export format (a space before the
    /// offset, no colon in it), for an instant in seconds since 1970 UTC.
    mutating func append(appleTimestamp instant: Int64) {
        let text = instant + appleExportOffsetSeconds
        let dayNumber = floorDivide(text, 86_400)
        let seconds = Int(text - dayNumber * 86_400)
        append(date: CivilDate(dayNumber: Int(dayNumber)))
        append(UInt8(ascii: " "))
        append(twoDigits: seconds / 3600)
        append(UInt8(ascii: ":"))
        append(twoDigits: seconds / 60 % 60)
        append(UInt8(ascii: ":"))
        append(twoDigits: seconds % 60)
        append(" +0100")
    }

    /// `yyyy-MM-dd`.
    mutating func append(date: CivilDate) {
        let year = date.year
        append(twoDigits: year / 100 % 100)
        append(twoDigits: year % 100)
        append(UInt8(ascii: "-"))
        append(twoDigits: date.month)
        append(UInt8(ascii: "-"))
        append(twoDigits: date.day)
    }

    /// The clock time of one heart beat as the HRV metadata list writes it,
    /// `7:43:10.12 AM`: 12-hour clock without a leading zero, hundredths of a
    /// second, in the same export-time offset as the timestamps.
    mutating func append(beatTime instant: Int64, hundredths: Int) {
        let text = instant + appleExportOffsetSeconds
        let seconds = Int(text - floorDivide(text, 86_400) * 86_400)
        let hour = seconds / 3600
        let hour12 = hour % 12 == 0 ? 12 : hour % 12
        append(unsigned: UInt64(hour12))
        append(UInt8(ascii: ":"))
        append(twoDigits: seconds / 60 % 60)
        append(UInt8(ascii: ":"))
        append(twoDigits: seconds % 60)
        append(UInt8(ascii: "."))
        append(twoDigits: hundredths)
        append(hour < 12 ? " AM" : " PM")
    }
}
