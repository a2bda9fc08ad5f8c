import HealthDays
import StreamingText

extension JSONWriter {
    /// `{"date","zone","rule","steps","source","priority","sources":[{"source","total","samples":[{"start","end",
    /// "value","share","split","dayTotal","enteredByHand","status","pattern"}]}]}`; `steps` and `source` null
    /// for a day without steps; `total` null for a source of which nothing counted; times on the
    /// wall clock that placed the sample, `YYYY-MM-DD HH:MM:SS`.
    public func writeExplanation(_ explanation: Explanation, to sink: any OutputSink) throws(OutputError) {
        let day = explanation.day
        var out = "{\"date\":\"\(day.date)\",\"zone\":\(JSONString.literal(explanation.zoneWords)),"
            + "\"rule\":\"\(day.priority == nil ? "highest-source" : "hc-priority")\","
            + "\"steps\":\(day.day.map { String($0.steps) } ?? "null"),"
            + "\"source\":\(day.day.map { JSONString.literal($0.source) } ?? "null"),"
            + "\"priority\":\(day.priority.map { "[" + $0.map(JSONString.literal).joined(separator: ",") + "]" } ?? "null"),"
            + "\"sources\":["
        for (index, source) in day.sources.enumerated() {
            if index > 0 { out += "," }
            out += "{\"source\":\(JSONString.literal(source.name)),\"total\":\(source.total.map(String.init) ?? "null"),\"samples\":["
            for (number, sample) in source.samples.enumerated() {
                let entry = sample.entry
                if number > 0 { out += "," }
                out += "{\"start\":\(entry.isDayTotal ? "null" : "\"\(Explanation.clock(entry.clockStart))\""),"
                    + "\"end\":\(entry.isDayTotal ? "null" : "\"\(Explanation.clock(entry.clockEnd))\""),"
                    + "\"value\":\(Explanation.amount(entry.sample.value)),\"share\":\(Explanation.amount(entry.share)),"
                    + "\"split\":\(entry.split),\"dayTotal\":\(entry.isDayTotal),\"enteredByHand\":\(entry.sample.enteredByHand),"
                    + "\"status\":\"\(Explanation.code(sample.status))\""
                if case .excludedBySource(let pattern) = sample.status { out += ",\"pattern\":\(JSONString.literal(pattern))" }
                out += "}"
            }
            out += "]}"
        }
        out += "],\"samplesNotListed\":\(day.notKept)}\n"
        try sink.write(out)
    }
}
