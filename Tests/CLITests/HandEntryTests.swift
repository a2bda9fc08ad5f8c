import Foundation
import Testing

/// `--exclude-manual`: records typed in by hand, left out against independent counts (the Python
/// reference for Apple, SQL for Health Connect's database), counted when they stay, named where
/// they made a day.
@Suite struct HandEntryTests {
    private func run(_ script: String) throws -> CommandRunner.Result {
        try CommandRunner.run(script)
    }

    private func days(_ json: Data) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        return try #require(object["days"] as? [[String: Any]])
    }

    /// A generated export (seed 5) where hand entries win four days: what stepimport leaves out is
    /// what the reference, written apart in Python, leaves out, in every one of Apple's readings.
    @Test(arguments: ["", "--strict-xml", "STEPIMPORT_PARSE_WORKERS=0"])
    func appleLeavesOutWhatTheReferenceLeavesOut(_ reading: String) throws {
        let env = reading.hasPrefix("STEPIMPORT") ? "env \(reading) " : ""
        let option = reading.hasPrefix("--") ? reading : ""
        let result = try run("""
            "$SYNTH" apple --out m.zip --days 200 --seed 5 2> /dev/null
            python3 "$SCRIPTS/reference_totals.py" m.zip --exclude-manual -o ref.json 2> ref.err
            python3 -c 'import json; d = json.load(open("ref.json")); print(json.dumps({"days": [{"date": x["date"], "steps": x["steps"]} for x in d["days"]]}))' > ref-days.json
            \(env)"$STEPIMPORT" apple m.zip --format json --exclude-manual \(option) > mine.json 2> mine.err
            \(env)"$STEPIMPORT" apple m.zip --format json --by-source \(option) > all.json 2> all.err
            python3 -c 'import json, sys; a = json.load(open("ref-days.json")); b = json.load(open("mine.json")); sys.exit(0 if a == b else 1)' || { echo DIFFER; exit 1; }
            grep -o '"hand_entered_left_out": [0-9]*' ref.err || grep -o 'hand_entered_left_out[^,]*' ref.err || true
            cat mine.err all.json
            """)
        #expect(result.status == 0, "\(result.stderr) \(String(decoding: result.stdout, as: UTF8.self).prefix(400))")
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.contains("--exclude-manual left out"), "\(text.prefix(800))")
        // The same export with them: hand entries win days, and --by-source says so.
        let json = try #require(text.range(of: "{\"days\"").map { Data(text[$0.lowerBound...].utf8) })
        let won = try days(json).filter { (($0["sources"] as? [[String: Any]])?.first?["enteredByHand"] as? Bool) == true }
        #expect(won.count == 4, "\(won.map { $0["date"] ?? "" })")
    }

    @Test func aDatabaseLeavesOutRecordingMethodThreeAsDeletingThoseRowsWould() throws {
        let result = try run("""
            "$SYNTH" hc-db --out hc.db --days 120 --seed 9 2> /dev/null
            python3 - <<'EOF'
            import shutil, sqlite3
            shutil.copy("hc.db", "without.db")
            c = sqlite3.connect("without.db")
            for row in c.execute("SELECT a.package_name, COUNT(*), SUM(s.count) FROM steps_record_table s JOIN application_info_table a ON a.row_id = s.app_info_id WHERE s.recording_method = 3 GROUP BY 1"):
                print("manual", row[0], row[1], row[2])
            c.execute("DELETE FROM steps_record_table WHERE recording_method = 3")
            c.commit()
            EOF
            "$STEPIMPORT" hc hc.db --format json --exclude-manual > left-out.json 2> left-out.err
            "$STEPIMPORT" hc without.db --format json > deleted.json 2> /dev/null
            "$STEPIMPORT" hc hc.db --format json > all.json 2> all.err
            cmp -s left-out.json deleted.json && echo SAME
            cmp -s left-out.json all.json || echo CHANGED
            cat left-out.err all.err
            """)
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.contains("SAME") && text.contains("CHANGED"), "\(text)")
        // The SQL count of the rows, per app, is what the summary says was left out and counts by default.
        let manual = text.split(separator: "\n").filter { $0.hasPrefix("manual ") }.map { $0.split(separator: " ") }
        try #require(!manual.isEmpty)
        for row in manual {
            let steps = Int(row[3])!.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
            #expect(text.contains("--exclude-manual left out \(row[2]) records typed in by hand of \(row[1]) (\(steps) steps)"), "\(text)")
        }
        #expect(text.contains("step records typed in by hand ("), "\(text)")
    }

    @Test func aJSONDumpSaysItByNumberOrByName() throws {
        let result = try run("""
            cat > dump.json <<'EOF'
            {"records":[
             {"startTime":"2024-05-01T08:00:00Z","endTime":"2024-05-01T08:30:00Z","count":500,"metadata":{"dataOrigin":"com.a","recordingMethod":3}},
             {"startTime":"2024-05-01T09:00:00Z","endTime":"2024-05-01T09:30:00Z","count":200,"metadata":{"dataOrigin":"com.a","recordingMethod":"RECORDING_METHOD_MANUAL_ENTRY"}},
             {"startTime":"2024-05-01T10:00:00Z","endTime":"2024-05-01T10:30:00Z","count":100,"metadata":{"dataOrigin":"com.a","recordingMethod":2}}
            ],"pageToken":null}
            EOF
            "$STEPIMPORT" hc dump.json --format csv --exclude-manual
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self) == "date,steps,source\n2024-05-01,100,com.a\n")
        #expect(result.stderr.contains("--exclude-manual left out 2 records typed in by hand of com.a (700 steps)"))
    }

    @Test func aFormatWithoutTheMarkSaysNothingCouldBeLeftOut() throws {
        let result = try run("""
            printf 'date,steps\\n2024-05-01,1200\\n' > days.csv
            "$STEPIMPORT" hc days.csv --exclude-manual
            """)
        #expect(result.status == 0)
        #expect(result.stderr.contains("warning: --exclude-manual: record and day-total CSV does not say which records were typed in by hand, so nothing was left out"),
                "\(result.stderr)")
    }

    @Test func inspectCountsThemPerSourceWithOrWithoutTheOption() throws {
        for option in ["", "--exclude-manual"] {
            let result = try run("\"$STEPIMPORT\" inspect samples/export.zip --format json \(option)")
            let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            let sources = try #require(object["sources"] as? [[String: Any]])
            let health = try #require(sources.first { $0["name"] as? String == "Health" })
            let byHand = try #require(health["enteredByHand"] as? [String: Any])
            #expect(byHand["records"] as? Int == 2 && byHand["steps"] as? Int == 10_748)
        }
    }
}

/// Sources by the names people type, and Health Connect's own number.
@Suite struct SourceWordsTests {
    @Test func aNameTypedWithAStraightApostropheOrAnotherCaseMatches() throws {
        let result = try CommandRunner.run("\"$STEPIMPORT\" apple samples/export.zip --exclude-source \"Anna's iphone\"")
        #expect(result.stderr.contains("--exclude-source left out 1479 records of Anna’s iPhone (matched Anna's iphone)"), "\(result.stderr)")
    }

    @Test func aPatternThatMatchesNothingNamesTheNearestSource() throws {
        let result = try CommandRunner.run("\"$STEPIMPORT\" apple samples/export.zip --exclude-source \"Anna's iPhon\"")
        #expect(result.stderr.contains("warning: --exclude-source Anna's iPhon matched no source; did you mean 'Anna’s iPhone'?"), "\(result.stderr)")
    }

    @Test func overlappingAppsSayHealthConnectsOwnNumberMayBeHigher() throws {
        let database = try CommandRunner.run("\"$STEPIMPORT\" hc 'samples/Health Connect.zip'")
        #expect(database.stderr.contains("several apps counted steps: each day here is the highest single app; Health Connect's own app combines apps by its priority list and may show more (--rule hc-priority gives its number)"),
                "\(database.stderr)")
        let dump = try CommandRunner.run("\"$STEPIMPORT\" hc samples/hc-react-native.json")
        #expect(dump.stderr.contains("(--rule hc-priority gives its number, with --priority app1,app2,...)"))
        let apple = try CommandRunner.run("\"$STEPIMPORT\" apple samples/export.zip")
        #expect(!apple.stderr.contains("several apps"))
    }
}
