import HealthDays
/// Health Connect data origins (app package names) as sources.
///
/// The phone's own step counter appears under two names: `android` and, since 2026,
/// `com.android.healthconnect.phone.*`. They are one source, or its history would be
/// split in two and each half could lose to another app.
public enum HealthConnectOrigin {
    /// The single name both spellings of the phone's counter are reported under.
    public static let phone = "android"
    private static let phoneUTF8: [UInt8] = Array(phone.utf8)
    private static let phonePrefix: [UInt8] = Array("com.android.healthconnect.phone.".utf8)
    private static let phoneExact: [UInt8] = Array("com.android.healthconnect.phone".utf8)

    /// Calls `body` with the source name to use for this origin (the phone's counter under one name).
    @inline(__always)
    public static func withCanonical<R>(_ origin: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if isPhone(origin) {
            return phoneUTF8.withUnsafeBytes(body)
        }
        return body(origin)
    }

    /// The source name to use for this origin.
    public static func canonical(_ origin: String) -> String {
        var origin = origin
        return origin.withUTF8 { isPhone(UnsafeRawBufferPointer($0)) } ? phone : origin
    }

    @inline(__always)
    static func isPhone(_ origin: UnsafeRawBufferPointer) -> Bool {
        if origin.elementsEqual(phoneUTF8) || origin.elementsEqual(phoneExact) { return true }
        return origin.count > phonePrefix.count && origin.starts(with: phonePrefix)
    }
}
