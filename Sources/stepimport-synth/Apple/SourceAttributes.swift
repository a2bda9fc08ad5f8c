/// The `sourceName`, `sourceVersion` and `device` attributes of one source on one
/// day, pre-rendered so that a record costs a few `memcpy`s.
///
/// The `device` value is HealthKit's `description` of an `HKDevice` object, which
/// is why it carries an object address (`0x2834a1c20`) and `<<`/`>` that the
/// exporter escapes. The address changes from record to record in real files
/// (each sample gets its own object) but the allocator keeps reusing a handful
/// of slots; here each source cycles through six addresses 0xa0 apart, picked
/// in a scrambled order, with a new set every day.
///
/// The record families added for the metrics beyond steps (VO2max, the watch's
/// extra sleep interval, its implausible readings) pick their addresses with a
/// counter of their own (`AddressCounter.added`), so that the `device` text of
/// every other record does not depend on them.
struct SourceAttributes {
    /// Which record counter picks a record's object address.
    enum AddressCounter {
        /// The counter of every record family but those of `added`.
        case original
        /// The counter of the families for the metrics beyond steps named above,
        /// which never moves the first one.
        case added
    }

    /// The source these attributes describe.
    let source: ExportSource
    /// ` sourceName="..." sourceVersion="..."`.
    private(set) var head: [UInt8] = []
    /// What follows the address in ` device="&lt;&lt;HKDevice: 0x…`, or nil for
    /// sources that write no device.
    private(set) var deviceTail: [UInt8]?
    private var version = ""
    private var baseAddress: UInt64 = 0
    private var recordCounter: UInt64 = 0
    private var addedRecordCounter: UInt64 = 0

    init(source: ExportSource) {
        self.source = source
    }

    /// Brings the version up to date for `dayNumber` and picks a fresh object
    /// address range for the day.
    mutating func prepare(dayNumber: Int, random: inout SplitMix64) {
        let release = SoftwareRelease.installed(on: dayNumber)
        let newVersion: String
        let device: String?
        switch source {
        case .phone:
            newVersion = release.iOS
            device = "name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,5, software:\(release.iOS)"
        case .watch:
            newVersion = release.watchOS
            device = "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,15, software:\(release.watchOS)"
        case .miFit:
            newVersion = "202311291740"
            device = nil
        case .healthApp:
            newVersion = release.iOS
            device = nil
        case .stepBridge:
            newVersion = "4.2"
            device = nil
        case .healthMate:
            newVersion = "6.14.0"
            device = "name:BPM Connect, manufacturer:Withings, model:BPM Connect, hardware:WPM04, software:1560"
        case .sleepCycle:
            newVersion = "6.24.5"
            device = nil
        case .strava:
            newVersion = "365.0.1"
            device = nil
        }
        if newVersion != version || head.isEmpty {
            version = newVersion
            var bytes = ByteBuffer()
            bytes.append(" sourceName=\"")
            bytes.append(attributeText: source.name)
            bytes.append("\" sourceVersion=\"")
            bytes.append(attributeText: newVersion)
            bytes.append("\"")
            head = bytes.bytes
            deviceTail = device.map { description in
                var tail = ByteBuffer()
                tail.append(attributeText: ">, " + description + ">")
                tail.append("\"")
                return tail.bytes
            }
        }
        baseAddress = 0x2_8000_1000 + (random.next() % 0x0_7FFE_0000) & ~0x1F
    }

    /// Appends ` sourceName=".." sourceVersion=".."` and, for Apple devices,
    /// ` device=".."` with a new object address, picked by `counter`.
    @inline(__always)
    mutating func append(to buffer: inout ByteBuffer, counter: AddressCounter = .original) {
        buffer.append(head)
        if let tail = deviceTail {
            buffer.append(" device=\"&lt;&lt;HKDevice: 0x")
            let count: UInt64
            switch counter {
            case .original:
                recordCounter &+= 1
                count = recordCounter
            case .added:
                addedRecordCounter &+= 1
                count = addedRecordCounter
            }
            let slot = (count &* 0x9E37_79B9_7F4A_7C15) >> 61  // 0...7
            buffer.append(hex: baseAddress - 0xA0 * (slot % 6), digits: 9)
            buffer.append(tail)
        }
    }
}
