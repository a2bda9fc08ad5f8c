import HealthDays

extension CSVWriter {
    /// `date,metric,source,start,end,value,share,status,note`: one row per sample of the day.
    public func writeExplanation(_ explanation: Explanation, to sink: any OutputSink) throws(OutputError) {
        try sink.write("date,metric,source,start,end,value,share,status,note\n")
        for day in explanation.days {
            for source in day.sources {
                for sample in source.samples {
                    let entry = sample.entry
                    let times = entry.isDayTotal ? ["", ""] : [Explanation.clock(entry.clockStart), Explanation.clock(entry.clockEnd)]
                    let fields = [day.date.description, day.metric.name, csvField(source.name)] + times
                        + [Explanation.amount(entry.value), Explanation.amount(entry.share), Explanation.code(sample.status),
                           csvField(Explanation.note(sample))]
                    try sink.write(fields.joined(separator: ",") + "\n")
                }
            }
        }
    }
}
