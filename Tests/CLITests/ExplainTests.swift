import Foundation
import Testing

/// `--explain DATE`: one day's samples, what became of each, and the rule's choice, held to the
/// rule's own totals.
@Suite struct ExplainTests {
    private func explain(_ arguments: String) throws -> [String: Any] {
        let result = try CommandRunner.run("\"$STEPIMPORT\" \(arguments) --format json")
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    }

    private func sources(_ object: [String: Any]) throws -> [[String: Any]] {
        try #require(object["sources"] as? [[String: Any]])
    }

    /// Under the highest-source rule each source's counted shares add up to its total, and the
    /// day is the highest of them: what the plain output says for that day.
    @Test(arguments: ["apple samples/export.zip --explain 2024-03-23", "apple samples/export.zip --explain 2024-03-31 --tz Europe/Berlin",
                      "hc 'samples/Health Connect.zip' --explain 2025-03-21", "hc samples/hc-react-native.json --explain 2025-03-21"])
    func sharesAddUpToTheRulesTotals(_ arguments: String) throws {
        let object = try explain(arguments)
        let day = try #require(object["steps"] as? Int)
        var highest = 0
        for source in try sources(object) {
            let samples = try #require(source["samples"] as? [[String: Any]])
            let counted = samples.filter { $0["status"] as? String == "counted" }.reduce(0.0) { $0 + ($1["share"] as? Double ?? 0) }
            let total = try #require(source["total"] as? Int)
            #expect(abs(counted - Double(total)) <= 0.51 + 0.01 * Double(samples.count), "\(source["source"] ?? "")")
            highest = max(highest, total)
        }
        #expect(day == highest)
        // The plain output's value for the same day.
        let words = arguments.split(separator: " ")
        let date = String(words[words.firstIndex(of: "--explain")! + 1])
        let plain = try CommandRunner.run("\"$STEPIMPORT\" \(arguments.replacingOccurrences(of: "--explain \(date)", with: "")) --format csv")
        #expect(String(decoding: plain.stdout, as: UTF8.self).contains("\(date),\(day),\(object["source"] as? String ?? "?")"))
    }

    @Test func whatWasLeftOutIsSaidPerSample() throws {
        let object = try explain("apple samples/export.zip --explain 2024-03-23 --exclude-source 'Mi*' --exclude-manual")
        let byName = Dictionary(uniqueKeysWithValues: try sources(object).map { ($0["source"] as! String, $0) })
        let mi = try #require(byName["Mi Fit"]?["samples"] as? [[String: Any]])
        #expect(!mi.isEmpty && mi.allSatisfy { $0["status"] as? String == "excluded-source" && $0["pattern"] as? String == "Mi*" })
        let health = try #require(byName["Health"]?["samples"] as? [[String: Any]])
        #expect(health.count == 1 && health[0]["status"] as? String == "excluded-manual" && health[0]["enteredByHand"] as? Bool == true)
        #expect(byName["Health"]?["total"] is NSNull)
    }

    @Test func duplicatesAreCountedOnceAndSaidToBe() throws {
        let object = try explain("apple samples/export.zip --explain 2024-03-23")
        let mi = try #require(try sources(object).first { $0["source"] as? String == "Mi Fit" }?["samples"] as? [[String: Any]])
        #expect(mi.contains { $0["status"] as? String == "duplicate" })
        let table = try CommandRunner.run("\"$STEPIMPORT\" apple samples/export.zip --explain 2024-03-23")
        let text = String(decoding: table.stdout, as: UTF8.self)
        #expect(text.contains("exact duplicate of an earlier sample: counted once"))
        #expect(text.contains("The day: 16,080 steps from Anna’s Apple Watch, the highest single source"), "\(text.suffix(400))")
        #expect(text.contains("<- the day's value"))
    }

    @Test func healthConnectsPriorityRuleSaysWhatEachAppAdded() throws {
        let object = try explain("hc 'samples/Health Connect.zip' --explain 2025-03-21 --rule hc-priority")
        #expect(object["rule"] as? String == "hc-priority" && object["steps"] as? Int == 13_863)
        #expect((object["priority"] as? [String])?.first == "android")
        let table = try CommandRunner.run("\"$STEPIMPORT\" hc 'samples/Health Connect.zip' --explain 2025-03-21 --rule hc-priority")
        #expect(String(decoding: table.stdout, as: UTF8.self).contains("what each app added: android 10,059, com.sec.android.app.shealth 3,805"))
    }

    /// With `--metric`, each metric's explanation carries the values the plain output gives
    /// that day, and its samples say how: a sum's counted shares add up to each source's value,
    /// a measured value is the average (lowest, highest) of its source's counted samples, and
    /// the minutes of sleep are those of the intervals counted on the day.
    @Test(arguments: ["apple samples/export.zip --explain 2024-03-23 --metric all",
                      "apple samples/export.zip --explain 2024-03-31 --tz Europe/Berlin --metric all",
                      "hc 'samples/Health Connect.zip' --explain 2025-03-21 --metric all",
                      "hc 'samples/Health Connect.zip' --explain 2025-03-22 --metric steps,distance,flights --rule hc-priority"])
    func everyMetricIsExplainedByItsOwnRule(_ arguments: String) throws {
        let object = try explain(arguments)
        let metrics = try #require(object["metrics"] as? [[String: Any]])
        let date = try #require(object["date"] as? String)
        let plainArguments = arguments.replacingOccurrences(of: "--explain \(date)", with: "--since \(date) --until \(date)")
        let plain = try CommandRunner.run("\"$STEPIMPORT\" \(plainArguments) --format json")
        let days = try #require((try JSONSerialization.jsonObject(with: plain.stdout) as? [String: Any])?["days"] as? [[String: Any]])
        let shown = try #require(days.first)
        #expect(metrics.count >= 3)
        var explainedSleep = false
        for metric in metrics {
            let name = try #require(metric["metric"] as? String)
            let values: [String: Any] = name == "steps" ? ["steps": metric["steps"] ?? NSNull()]
                : try #require(metric["values"] as? [String: Any])
            for (column, value) in values {
                #expect("\(value)" == "\(shown[column] ?? NSNull())", "\(name) \(column)")
            }
            guard arguments.contains("hc-priority") == false, let chosen = metric["source"] as? String else { continue }
            let source = try #require(try sources(metric).first { $0["source"] as? String == chosen })
            let samples = try #require(source["samples"] as? [[String: Any]])
            let counted = samples.filter { $0["status"] as? String == "counted" }.compactMap { $0["share"] as? Double }
            let sourceValues = source["values"] as? [String: Double] ?? [:]
            switch name {
            case "heart-rate":
                let average = counted.reduce(0, +) / Double(counted.count)
                #expect(abs(average - sourceValues["hr_avg", default: -1]) <= 0.051, "\(name)")
                #expect(counted.min() == sourceValues["hr_min"] && counted.max() == sourceValues["hr_max"], "\(name)")
            case "sleep", "in-bed":
                let column = name == "sleep" ? "sleep_min" : "in_bed_min"
                #expect(abs(counted.reduce(0, +) - sourceValues[column, default: -1]) <= 0.51, "\(name)")
                explainedSleep = true
            case "distance", "active-energy", "flights":
                let column = ["distance": "distance_m", "active-energy": "active_kcal", "flights": "flights"][name]!
                #expect(abs(counted.reduce(0, +) - sourceValues[column, default: -1]) <= 0.51 + 0.01 * Double(samples.count), "\(name)")
            default: break
            }
        }
        #expect(explainedSleep == arguments.contains("--metric all"))
    }

    /// A night counts on the day it ends: the evening's intervals that run into the next day are
    /// listed, marked as counted there.
    @Test func sleepCountsOnTheDayItsPeriodEnds() throws {
        let object = try explain("apple samples/export.zip --explain 2024-03-23 --metric in-bed")
        let inBed = try #require((object["metrics"] as? [[String: Any]])?.first)
        #expect(inBed["metric"] as? String == "in-bed" && (inBed["values"] as? [String: Any])?["in_bed_min"] as? Int == 537)
        let phone = try #require(try sources(inBed).first { $0["source"] as? String == "Anna’s iPhone" })
        let statuses = try #require(phone["samples"] as? [[String: Any]]).map { $0["status"] as? String ?? "" }
        #expect(statuses == ["counted", "other-day"])
        let table = try CommandRunner.run("\"$STEPIMPORT\" apple samples/export.zip --explain 2024-03-23 --metric in-bed")
        #expect(String(decoding: table.stdout, as: UTF8.self).contains("its period ends on 2024-03-24: counted there"))
    }

    @Test(arguments: ["--post --tz UTC", "--by-source", "--since 2024-03-01"])
    func itDoesNotGoWithWhatItCannotExplain(_ other: String) throws {
        let result = try CommandRunner.run("\"$STEPIMPORT\" apple samples/export.zip --explain 2024-03-23 \(other)")
        #expect(result.status == 64)
        #expect(result.stderr.contains("--explain does not go with"), "\(result.stderr)")
    }
}
