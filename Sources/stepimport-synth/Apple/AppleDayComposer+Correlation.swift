extension AppleDayComposer {
    /// Once a month (on the 12th) a blood-pressure reading from a Withings cuff,
    /// as a `Correlation` whose children are full `Record`s, one of them a step
    /// count the app logged with it.
    ///
    /// Real exports repeat every correlation child as a top-level record, so the
    /// same three records follow at top level: the nested step record must not
    /// count a second time.
    mutating func writeBloodPressureCorrelation(_ plan: DayPlan) {
        guard CivilDate(dayNumber: plan.dayNumber).day == 12 else { return }
        var random = SplitMix64(seed: seed, day: plan.dayNumber, stream: 60)
        let reading = plan.wake + random.int64(900...2400)
        let walkStart = reading - random.int64(360...600)
        let walkEnd = reading - random.int64(30...90)
        let created = reading + random.int64(20...240)
        let systolic = random.int(112...134)
        let diastolic = random.int(70...86)
        let steps = random.int(20...90)

        list.begin(at: walkStart)
        list.buffer.append(" <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\"")
        sources[ExportSource.healthMate.rawValue].append(to: &list.buffer)
        appendDates(created: created, start: walkStart, end: reading)
        list.buffer.append(">\n")
        appendMetadata("Withings User Identifier", "10738294")
        // The top-level copies must be the same records, device address included.
        let attributesBeforeChildren = sources[ExportSource.healthMate.rawValue]
        writeCorrelationChildren(nested: true, created: created, reading: reading, walkStart: walkStart,
                                 walkEnd: walkEnd, systolic: systolic, diastolic: diastolic, steps: steps)
        list.buffer.append(" </Correlation>\n")
        list.end()

        sources[ExportSource.healthMate.rawValue] = attributesBeforeChildren
        writeCorrelationChildren(nested: false, created: created, reading: reading, walkStart: walkStart,
                                 walkEnd: walkEnd, systolic: systolic, diastolic: diastolic, steps: steps)
    }

    /// The correlation's three records, nested (two-space indent, part of the
    /// open element) or top-level (each its own element, the step one noted).
    private mutating func writeCorrelationChildren(nested: Bool, created: Int64, reading: Int64, walkStart: Int64,
                                                   walkEnd: Int64, systolic: Int, diastolic: Int, steps: Int) {
        func record(_ composer: inout AppleDayComposer, _ type: StaticString, _ unit: StaticString,
                    _ start: Int64, _ end: Int64, _ value: Int) {
            if !nested { composer.list.begin(at: start) }
            composer.openRecord(type, .healthMate, unit: unit, created: created, start: start, end: end, nested: nested)
            composer.list.buffer.append(" value=\"")
            composer.list.buffer.append(int: value)
            composer.list.buffer.append("\"/>\n")
            if !nested { composer.list.end() }
        }
        record(&self, "HKQuantityTypeIdentifierBloodPressureDiastolic", "mmHg", reading, reading, diastolic)
        record(&self, "HKQuantityTypeIdentifierBloodPressureSystolic", "mmHg", reading, reading, systolic)
        record(&self, "HKQuantityTypeIdentifierStepCount", "count", walkStart, walkEnd, steps)
        if !nested {
            noteStep(.healthMate, start: walkStart, end: walkEnd, value: Double(steps))
        }
    }
}
