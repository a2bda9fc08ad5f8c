import HealthDays
import StreamingText

extension JSONWriter {
    /// Steps: `{"date","zone","rule","steps","source","priority","sources":[{"source","total","samples":[{"start",
    /// "end","value","share","split","dayTotal","enteredByHand","status","pattern"}]}],"samplesNotListed"}`;
    /// `steps` and `source` null for a day without steps; `total` null for a source of which nothing
    /// counted; times on the wall clock that placed the sample, `YYYY-MM-DD HH:MM:SS`. With
    /// `--metric`: `{"date","zone","metrics":[...]}`, one object a metric, each as the steps' with
    /// `"metric"`, and for a metric other than steps `"values":{column: value}` for the day's and
    /// each source's values in place of `steps` and `total`.
    public func writeExplanation(_ explanation: Explanation, to sink: any OutputSink) throws(OutputError) {
        guard explanation.byMetric else {
            guard let day = explanation.days.first else { return try sink.write("{}\n") }
            return try sink.write(Self.section(day, zone: explanation.zoneWords, withDate: true) + "\n")
        }
        let date = explanation.days.first?.date.description ?? ""
        try sink.write("{\"date\":\"\(date)\",\"zone\":\(JSONString.literal(explanation.zoneWords)),\"metrics\":["
            + explanation.days.map { Self.section($0, zone: nil, withDate: false) }.joined(separator: ",") + "]}\n")
    }

    private static func section(_ day: DayExplanation, zone: String?, withDate: Bool) -> String {
        var out = "{"
        if withDate { out += "\"date\":\"\(day.date)\"," }
        if let zone { out += "\"zone\":\(JSONString.literal(zone))," }
        if day.metric == .steps {
            out += "\(withDate ? "" : "\"metric\":\"steps\",")\"rule\":\"\(day.priority == nil ? "highest-source" : "hc-priority")\","
                + "\"steps\":\(day.day.map { String($0.steps) } ?? "null"),"
        } else {
            out += "\"metric\":\"\(day.metric.name)\",\"rule\":\"\(day.priority == nil ? "highest-source" : "hc-priority")\","
                + "\"values\":{" + day.values.map { column, value in
                    "\"\(column.name)\":\(value.map { metricValueText($0, column) } ?? "null")"
                }.joined(separator: ",") + "},"
        }
        out += "\"source\":\(day.chosen.map(JSONString.literal) ?? "null"),"
            + "\"priority\":\(day.priority.map { "[" + $0.map(JSONString.literal).joined(separator: ",") + "]" } ?? "null"),"
            + "\"sources\":["
        for (index, source) in day.sources.enumerated() {
            if index > 0 { out += "," }
            out += "{\"source\":\(JSONString.literal(source.name)),"
            if day.metric == .steps {
                out += "\"total\":\(source.total.map(String.init) ?? "null"),"
            } else {
                out += "\"values\":{" + source.values.map { "\"\($0.column.name)\":\(metricValueText($0.value, $0.column))" }
                    .joined(separator: ",") + "},"
            }
            out += "\"samples\":["
            for (number, sample) in source.samples.enumerated() {
                let entry = sample.entry
                if number > 0 { out += "," }
                out += "{\"start\":\(entry.isDayTotal ? "null" : "\"\(Explanation.clock(entry.clockStart))\""),"
                    + "\"end\":\(entry.isDayTotal ? "null" : "\"\(Explanation.clock(entry.clockEnd))\""),"
                    + "\"value\":\(Explanation.amount(entry.value)),\"share\":\(Explanation.amount(entry.share)),"
                    + "\"split\":\(entry.split),\"dayTotal\":\(entry.isDayTotal),\"enteredByHand\":\(entry.sample.enteredByHand),"
                    + "\"status\":\"\(Explanation.code(sample.status))\""
                if case .excludedBySource(let pattern) = sample.status { out += ",\"pattern\":\(JSONString.literal(pattern))" }
                out += "}"
            }
            out += "]}"
        }
        return out + "],\"samplesNotListed\":\(day.notKept)}"
    }
}
