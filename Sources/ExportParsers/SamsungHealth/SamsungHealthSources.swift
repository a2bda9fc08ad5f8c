/// The sources of a Samsung Health export's steps, by name (docs/samsung.md, *Sources*).
///
/// `step_daily_trend`'s combined row (`source_type` -2, what the app shows) is `Samsung Health`;
/// every other row is the device it names, shown with its type: `Samsung Health (phone,
/// XLy3VBYEN4)`, `(watch, ...)`, `(device type 108, ...)`. A minute bin names its device alone:
/// `Samsung Health (device 9cX1oNetDs)`. The names of the first `keptDevices` devices are made
/// once and kept, so that a row costs no allocation.
struct SamsungHealthSources {
    /// `source_type` of Samsung Health's own combined total of a day.
    static let combinedType = -2
    static let combined: [UInt8] = Array("Samsung Health".utf8)
    /// How many devices' names are kept (a real export has a few).
    static let keptDevices = 64

    private struct Device {
        let type: Int?
        let id: [UInt8]
        let name: [UInt8]
    }

    private var devices: [Device] = []
    /// Whether more devices were met than names are kept for.
    private(set) var moreDevices = false

    /// The devices met, up to `keptDevices` (`moreDevices` says whether there were more), for the summary.
    var deviceCount: Int { devices.count }

    /// Calls `body` with the name of the source of `type` (nil for a minute bin, which has none)
    /// and device `id`.
    mutating func withName<Result>(type: Int?, device id: UnsafeRawBufferPointer,
                                   _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        if type == Self.combinedType {
            return Self.combined.withUnsafeBytes(body)
        }
        if let known = devices.first(where: { $0.type == type && $0.id.elementsEqual(id) }) {
            return known.name.withUnsafeBytes(body)
        }
        let name = Self.name(type: type, device: id)
        if devices.count < Self.keptDevices {
            devices.append(Device(type: type, id: Array(id), name: name))
        } else {
            moreDevices = true
        }
        return name.withUnsafeBytes(body)
    }

    /// `Samsung Health (phone, id)` and the like.
    static func name(type: Int?, device id: UnsafeRawBufferPointer) -> [UInt8] {
        let kind: String
        switch type {
        case nil: kind = "device"
        case 0: kind = "phone"
        case 102: kind = "watch"
        case let other?: kind = "device type \(other)"
        }
        var name = Array("Samsung Health (\(kind)".utf8)
        if !id.isEmpty {
            name += type == nil ? [0x20] : Array(", ".utf8)
            name += id
        }
        name.append(UInt8(ascii: ")"))
        return name
    }
}
