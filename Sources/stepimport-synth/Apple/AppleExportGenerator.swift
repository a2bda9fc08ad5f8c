/// Writes a complete synthetic `export.xml`: head, DTD, one day after another,
/// and the closing tag.
///
/// The export date goes in the head but depends on the last day, which a
/// `--size` run only knows at the end; so the head carries a placeholder of the
/// same length that is patched in place when the file is done.
struct AppleExportGenerator {
    /// What a run produced.
    struct Result {
        /// Berlin dates (day numbers) of the first and last generated day.
        var firstDay: Int
        var lastDay: Int
        var dayCount: Int
        var bytes: Int
        var recordCount: Int
        var stepRecordCount: Int
        /// The `ExportDate` written in the head.
        var exportInstant: Int64
        /// Notes of the step records, empty unless asked for.
        var writtenSteps: [WrittenStepSample]
        /// Notes of the other metrics' records, empty unless asked for.
        var writtenMetrics: [WrittenMetricSample]
    }

    let options: AppleExportOptions

    /// Generates the XML into `path`.
    func writeXML(to path: String) throws(SynthError) -> Result {
        var file = try OutputFile(path: path)
        var head = ByteBuffer()
        head.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        head.append(Array(options.dtd.text.utf8))
        head.append("<HealthData locale=\"de_DE\">\n <ExportDate value=\"")
        let exportDateOffset = head.count
        head.append("0000-00-00 00:00:00 +0100")
        head.append("\"/>\n <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1991-06-23\" HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexFemale\" HKCharacteristicTypeIdentifierBloodType=\"HKBloodTypeAPositive\" HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"HKFitzpatrickSkinTypeNotSet\" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"None\"/>\n")
        try file.write(head.bytes)

        var composer = AppleDayComposer(seed: options.seed, collectsNotes: options.expectedPath != nil,
                                        insertsControlCharacters: options.controlCharacters)
        var dayNumber = options.startDay
        var dayIndex = 0
        while true {
            if let days = options.days, dayIndex >= days { break }
            let plan = DayPlan(seed: options.seed, dayNumber: dayNumber)
            composer.compose(plan, dayIndex: dayIndex)
            try composer.list.drain(before: plan.dayEnd, into: &file)
            dayIndex += 1
            dayNumber += 1
            // Stop at the end of the day that crosses the requested size.
            if let limit = options.sizeLimit, file.bytesWritten >= limit { break }
        }
        // The last night's sleep and any walk past the last midnight.
        try composer.list.drain(before: .max, into: &file)
        var tail = ByteBuffer()
        tail.append("</HealthData>\n")
        try file.write(tail.bytes)

        let lastDay = dayNumber - 1
        // The evening after the last day, late enough to follow every creationDate.
        let exportInstant = Int64(lastDay + 1) * 86_400 + 19 * 3600 + 12 * 60 + 43 - appleExportOffsetSeconds
        var stamp = ByteBuffer()
        stamp.append(appleTimestamp: exportInstant)
        try file.patch(stamp.bytes, at: exportDateOffset)
        let bytes = file.bytesWritten
        try file.finish()

        return Result(firstDay: options.startDay, lastDay: lastDay, dayCount: dayIndex, bytes: bytes,
                      recordCount: composer.recordCount, stepRecordCount: composer.stepRecordCount,
                      exportInstant: exportInstant, writtenSteps: composer.writtenSteps,
                      writtenMetrics: composer.writtenMetrics)
    }
}
