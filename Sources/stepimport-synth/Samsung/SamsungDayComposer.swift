/// What one generated day of a Samsung Health user holds: a phone (a second one from halfway
/// under `--phone-change`), a watch worn most days, Samsung Health's combined total (never below
/// a device's, at most their sum: the two overlap), and Google Fit's own total when asked.
/// Deterministic per (seed, day).
struct SamsungDay {
    /// One device's day: its `source_type` (0 phone, 102 watch), steps and distance.
    struct Device {
        let id: String
        let type: Int
        let steps: Int
        let centimetres: Int
    }

    let index: Int
    let dayNumber: Int
    let devices: [Device]
    /// Samsung Health's combined total (`source_type` -2), when the day has steps and it is written.
    let combined: (steps: Int, centimetres: Int)?
    /// Google Fit's total of the day, under `--with-google-fit`.
    let googleFitSteps: Int?
}

struct SamsungDayComposer {
    static let phone = "XLy3VBYEN4"
    static let secondPhone = "bvFPH0+ZC9"
    static let watch = "60rRju/E5J"
    /// The `deviceuuid` of the combined rows.
    static let combinedDevice = "VfS0qUERdZ"

    let options: SamsungOptions

    func day(index: Int) -> SamsungDay {
        let dayNumber = options.startDay + index
        var random = SplitMix64(seed: options.seed, day: dayNumber, stream: 0x5A)
        // Now and then a day with nothing at all: no rows.
        guard index % 11 != 5 else {
            return SamsungDay(index: index, dayNumber: dayNumber, devices: [], combined: nil, googleFitSteps: nil)
        }
        var devices: [SamsungDay.Device] = []
        let phone = options.phoneChange && index >= (options.days ?? 0) / 2 ? Self.secondPhone : Self.phone
        // A day the phone stayed home still has its row, with 0 steps.
        let phoneSteps = random.chance(0.06) ? 0 : random.int(1_500...14_000)
        devices.append(Self.device(phone, type: 0, steps: phoneSteps, random: &random))
        if random.chance(0.7) {
            devices.append(Self.device(Self.watch, type: 102, steps: random.int(1_000...16_000), random: &random))
        }
        let highest = devices.map(\.steps).max() ?? 0
        let lowest = devices.count > 1 ? devices.map(\.steps).min() ?? 0 : 0
        var combined: (steps: Int, centimetres: Int)?
        if !options.devicesOnly, highest > 0 {
            let steps = highest + (lowest > 0 ? random.int(0...lowest / 2) : 0)
            // The farthest device's distance, and the steps only the other counted at its stride.
            let farthest = devices.map(\.centimetres).max() ?? 0
            combined = (steps, Self.unambiguous(farthest + (steps - highest) * random.int(66...80)))
        }
        let fit = options.withGoogleFit && random.chance(0.85) ? random.int(1_000...18_000) : nil
        return SamsungDay(index: index, dayNumber: dayNumber, devices: devices, combined: combined, googleFitSteps: fit)
    }

    private static func device(_ id: String, type: Int, steps: Int, random: inout SplitMix64) -> SamsungDay.Device {
        SamsungDay.Device(id: id, type: type, steps: steps,
                          centimetres: steps == 0 ? 0 : unambiguous(steps * random.int(62...82) + random.int(0...99)))
    }

    /// Centimetres whose metres are never half way between two whole numbers, so that every
    /// reader rounds them alike.
    static func unambiguous(_ centimetres: Int) -> Int {
        centimetres % 100 == 50 ? centimetres + 1 : centimetres
    }
}
