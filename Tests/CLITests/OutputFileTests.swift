import Foundation
import Testing
import TestSupport

/// `-o FILE` (issue 34): the file holds exactly what standard output would, is whole or not there,
/// and the one that was there stays when a run fails; `-o FILE.sqlite` holds what `--format json`
/// prints, read back with Python's sqlite3 and the sqlite3 command.
@Suite struct OutputFileTests {
    /// One run with `-o`: the command writing to standard output, and the same writing to `file`
    /// (its format by `--format`, or by the name alone).
    struct Case: Sendable, CustomTestStringConvertible {
        let printed: String
        let written: String
        let file: String
        var testDescription: String { written + " -o " + file }
    }

    static let inputs = ["apple samples/export.zip", "hc 'samples/Health Connect.zip'", "hc samples/hc-react-native.json"]

    static let cases: [Case] = inputs.flatMap { input in
        [
            Case(printed: input, written: input + " --format table", file: "days.out"),
            Case(printed: input + " --format json", written: input + " --format json", file: "days.out"),
            Case(printed: input + " --format csv --by-source", written: input + " --format csv --by-source", file: "days.out"),
            Case(printed: input, written: input, file: "days.txt"),
            Case(printed: input + " --format json --by-source", written: input + " --by-source", file: "days.json"),
            Case(printed: input + " --format csv", written: input, file: "Days.CSV"),
        ]
    } + [
        Case(printed: "apple samples/export.zip --metric all --format csv", written: "apple samples/export.zip --metric all", file: "m.csv"),
        Case(printed: "hc 'samples/Health Connect.zip' --metric all --format json --by-source",
             written: "hc 'samples/Health Connect.zip' --metric all --by-source", file: "m.json"),
        Case(printed: "apple samples/export.zip --explain 2024-03-23 --format csv",
             written: "apple samples/export.zip --explain 2024-03-23", file: "e.csv"),
        Case(printed: "apple samples/export.zip --post --tz Europe/Berlin --dry-run --format json --send-all",
             written: "apple samples/export.zip --post --tz Europe/Berlin --dry-run --send-all", file: "requests.json"),
        Case(printed: "inspect samples/export.zip --format json", written: "inspect samples/export.zip", file: "inspection.json"),
        Case(printed: "inspect 'samples/Health Connect.zip'", written: "inspect 'samples/Health Connect.zip'", file: "inspection.txt"),
        Case(printed: "inspect samples/export.zip", written: "inspect samples/export.zip --format table", file: "inspection.json"),
    ]

    /// The file equals standard output byte for byte, and the folder holds it alone: no temporary
    /// file is left. The summary's last line says where it went.
    @Test(arguments: cases)
    func theFileEqualsStandardOutput(_ test: Case) throws {
        let result = try CommandRunner.run("""
            export STEPIMPORT_TOKEN=unused STEPIMPORT_API_URL=https://api.example.com COLUMNS=100
            $STEPIMPORT \(test.printed) > printed 2> /dev/null
            mkdir out
            $STEPIMPORT \(test.written) -o 'out/\(test.file)' 2> stderr
            status=$?
            cat stderr >&2
            cmp printed 'out/\(test.file)' && ls -A out && test -s printed && exit $status
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self) == test.file + "\n")
        let lastLine = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(lastLine.hasPrefix("stepimport: wrote ") && lastLine.contains(" to out/\(test.file) ("), "\(result.stderr)")
    }

    @Test func standardOutputByEveryNameOfIt() throws {
        let result = try CommandRunner.run("""
            $STEPIMPORT apple samples/export.zip -q --format json > printed
            for name in - /dev/stdout; do
                $STEPIMPORT apple samples/export.zip -q -o $name --format json | cmp printed - || exit 1
            done
            # A FIFO is written directly, as the shell's > would.
            mkfifo fifo
            cat fifo > from-fifo &
            $STEPIMPORT apple samples/export.zip -q -o fifo --format json || exit 1
            wait
            cmp printed from-fifo && ls -A
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self) == "fifo\nfixtures\nfrom-fifo\nprinted\nsamples\n")
    }

    /// Bad data leaves no file (65); a missing export keeps the file that was there (66); a
    /// folder that does not exist fails before the export is read (74, not 66 for the missing export).
    @Test func aFailedRunLeavesNoFileAndKeepsTheOldOne() throws {
        let result = try CommandRunner.run("""
            mkdir out
            head -c 300000 samples/export.zip > truncated.zip
            $STEPIMPORT apple truncated.zip -o out/new.csv 2> /dev/null; echo "bad data $?"
            $STEPIMPORT apple truncated.zip -o out/new.sqlite 2> /dev/null; echo "bad data, database $?"
            echo old > out/kept.csv
            $STEPIMPORT apple samples/no-such-export.zip -o out/kept.csv 2> /dev/null; echo "no input $?"
            $STEPIMPORT apple samples/export.zip -q -o out/kept.sqlite
            cp out/kept.sqlite before.sqlite
            $STEPIMPORT hc truncated.zip -o out/kept.sqlite 2> /dev/null; echo "bad data into a database $?"
            cmp before.sqlite out/kept.sqlite && echo "database unchanged"
            $STEPIMPORT apple samples/no-such-export.zip -o out/no/such/days.csv 2> missing-folder; echo "missing folder $?"
            cat out/kept.csv
            ls -A out
            cat missing-folder
            """)
        #expect(String(decoding: result.stdout, as: UTF8.self) == """
            bad data 65
            bad data, database 65
            no input 66
            bad data into a database 65
            database unchanged
            missing folder 74
            old
            kept.csv
            kept.sqlite
            stepimport: error: -o out/no/such/days.csv: cannot create a file in out/no/such: No such file or directory

            """, "\(result.stderr)")
    }

    /// `--report` in a folder that does not exist fails when the command starts (exit 74, before
    /// the export is read or any account runs), not after the work; a report that can be written
    /// is whole, and no temporary file is left beside it.
    @Test func aReportThatCannotBeWrittenFailsBeforeAnyWork() throws {
        let result = try CommandRunner.run("""
            export STEPIMPORT_TOKEN=unused STEPIMPORT_API_URL=https://api.example.com
            mkdir out
            $STEPIMPORT apple samples/no-such-export.zip --post --tz Europe/Berlin --dry-run --report out/no/report.json > stdout 2> post; echo "post $?"
            $STEPIMPORT batch samples/batch.csv --report out/no/report.json > stdout2 2> batch; echo "batch $?"
            cat stdout stdout2 post batch
            $STEPIMPORT apple samples/export.zip --post --tz Europe/Berlin --dry-run --send-all --report out/report.json > /dev/null 2>&1; echo "written $?"
            $STEPIMPORT batch samples/batch.csv -q --report out/batch.json > /dev/null; echo "batch written $?"
            python3 -c 'import json; print(json.load(open("out/report.json"))["daysParsed"], len(json.load(open("out/batch.json"))["accounts"]))'
            ls -A out
            """)
        #expect(String(decoding: result.stdout, as: UTF8.self) == """
            post 74
            batch 74
            stepimport: error: --report out/no/report.json: cannot create a file in out/no: No such file or directory
            stepimport: error: --report out/no/report.json: cannot create a file in out/no: No such file or directory
            written 0
            batch written 0
            46 3
            batch.json
            report.json

            """, "\(result.stderr)")
    }

    /// A signal while the export is read removes the temporary file made at the start.
    @Test(arguments: TemporaryFileTests.stops)
    func aSignalLeavesNoFile(_ stop: TemporaryFileTests.Stop) throws {
        let folder = try TemporaryFileTests.Folder("signal-output")
        let temporary = try TemporaryFileTests.Folder("signal-output-tmp")
        var started = false
        let outcome = try TemporaryFileTests.run(["hc", "-", "-o", folder.path + "/days.sqlite"], temporary: temporary.path) {
            process, input in
            try input.write(contentsOf: Data("SQLite format 3\0".utf8) + Data(count: 1 << 20))
            started = TemporaryFileTests.waitForCopy(in: temporary.path, atLeast: 1 << 19)
            #expect(folder.listing.count == 1 && folder.listing.first?.hasPrefix(".days.sqlite.") == true)
            kill(process.processIdentifier, stop.signal)
            process.waitUntilExit()
            try? input.close()
        }
        #expect(started)
        #expect(outcome.status == stop.status)
        #expect(folder.listing.isEmpty)
        #expect(temporary.listing.isEmpty)
    }

    // MARK: - SQLite

    /// Reads a database back with Python's sqlite3 and compares it with `--format json` of the
    /// same run: every day's value and source, and with `--by-source` every source's value and
    /// marks, in the order JSON lists them. Prints `same` or the first difference.
    static let compareScript = #"""
        import json, sqlite3, sys
        database, printed, by_source = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
        expected = json.load(open(printed))
        db = sqlite3.connect(database)
        days = {}
        for date, metric, value, source in db.execute("SELECT date, metric, value, source FROM days ORDER BY date"):
            days.setdefault(date, {})[metric] = (value, source)
        sources = {}
        for date, metric, source, value, winner, implausible, priority, by_hand in db.execute(
                "SELECT date, metric, source, value, winner, implausible, priority, entered_by_hand FROM source_days ORDER BY rowid"):
            sources.setdefault(date, []).append((metric, source, value, winner, implausible, priority, by_hand))
        metrics = any(set(day) - {"date", "steps", "source", "sources"} for day in expected["days"])
        rebuilt = []
        for date in sorted(set(days) | set(sources)):
            values = days.get(date, {})
            if not metrics:
                day = {"date": date, "steps": values["steps"][0]}
                if by_source:
                    day["source"] = values["steps"][1]
                    day["sources"] = []
                    for metric, source, value, winner, implausible, priority, by_hand in sources.get(date, []):
                        entry = {"source": source, "steps": value}
                        entry.update({"priority": priority} if priority is not None else {"winner": winner == 1})
                        if by_hand:
                            entry["enteredByHand"] = True
                        day["sources"].append(entry)
            else:
                day = {"date": date}
                for key in expected["days"][0]:
                    if key not in ("date", "sources"):
                        day[key] = values[key][0] if key in values else None
                if by_source:
                    day["sources"] = []
                    for metric, source, value, winner, implausible, priority, by_hand in sources.get(date, []):
                        entry = {"metric": metric, "source": source, "value": value}
                        if priority is not None:
                            entry["priority"] = priority
                        else:
                            entry["winner"] = "implausible" if implausible else "yes" if winner else "no"
                        day["sources"].append(entry)
                        # The day's source of each metric is the one marked the winner.
                        if winner and metric in values and values[metric][1] != source:
                            print("source of %s on %s: %s, not %s" % (metric, date, values[metric][1], source))
                            sys.exit(1)
            rebuilt.append(day)
        if not by_source and sources:
            print("source rows without --by-source")
        elif rebuilt != expected["days"]:
            for got, want in zip(rebuilt, expected["days"]):
                if got != want:
                    print("first difference:\n  database %s\n  json     %s" % (got, want))
                    break
            else:
                print("%d days in the database, %d in the JSON" % (len(rebuilt), len(expected["days"])))
        else:
            print("same", len(rebuilt))
        """#

    /// The database of a run holds what `--format json` prints for it, with and without
    /// `--by-source`, for steps and every metric, Apple and Health Connect.
    @Test(arguments: [
        "apple samples/export.zip", "apple samples/export.zip --metric all", "hc 'samples/Health Connect.zip'",
        "hc 'samples/Health Connect.zip' --metric all", "hc samples/hc-react-native.json --tz Europe/Berlin",
        "hc 'samples/Health Connect.zip' --rule hc-priority --metric steps,distance",
    ])
    func theDatabaseHoldsWhatJSONPrints(_ input: String) throws {
        let result = try CommandRunner.run("""
            cat > compare.py <<'EOF'
            \(Self.compareScript)
            EOF
            for by in "" --by-source; do
                $STEPIMPORT \(input) $by -q --format json > printed$by.json || exit 1
                $STEPIMPORT \(input) $by -q -o days$by.sqlite || exit 1
                python3 compare.py days$by.sqlite printed$by.json "${by:+1}"
            done
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix("same ") && $0 != "same 0" }, "\(lines)")
    }

    /// The same read with the sqlite3 command: the step days as JSON, exactly the API body.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs the sqlite3 command (apt-get install sqlite3)"))
    func theSQLiteCommandReadsTheSameDays() throws {
        let result = try CommandRunner.run("""
            $STEPIMPORT hc samples/hc-react-native.json -q --format json | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)["days"]))' > printed
            $STEPIMPORT hc samples/hc-react-native.json -q -o days.db
            sqlite3 -json days.db "SELECT date, steps FROM daily_steps ORDER BY date" \
              | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)))' > read
            cmp printed read && wc -l < read
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self) == "1\n")
    }

    /// docs/sqlite.md's example queries, run on the samples imported as it says, print what it shows.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs the sqlite3 command (apt-get install sqlite3)"))
    func theDocumentsQueriesPrintWhatItShows() throws {
        let document = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/sqlite.md"), encoding: .utf8)
        // Each example: a ```sql block, then the block of what it prints.
        let blocks = document.components(separatedBy: "```sql\n").dropFirst(2).map { part -> (String, String) in
            let query = part.components(separatedBy: "\n```\n")[0]
            let printed = part.components(separatedBy: "\n```\n```\n").dropFirst().first?.components(separatedBy: "\n```")[0] ?? ""
            return (query, printed)
        }
        try #require(blocks.count >= 6)
        var script = """
            mkdir demo && cp samples/export.zip 'samples/Health Connect.zip' demo/ && cd demo
            $STEPIMPORT apple export.zip --metric all --by-source -o days.sqlite -q || exit 1
            $STEPIMPORT hc 'Health Connect.zip' --by-source -o days.sqlite -q --tz Europe/Berlin || exit 1

            """
        for (query, _) in blocks {
            script += "sqlite3 -header -column days.sqlite <<'EOF' | sed 's/ *$//'\n\(query)\nEOF\necho '@@ end of query @@'\n"
        }
        let result = try CommandRunner.run(script)
        #expect(result.status == 0, "\(result.stderr)")
        let printed = String(decoding: result.stdout, as: UTF8.self).components(separatedBy: "@@ end of query @@\n").dropLast()
        #expect(printed.count == blocks.count)
        for ((query, shown), got) in zip(blocks, printed) {
            #expect(got == shown + "\n", "docs/sqlite.md: \(query)")
        }
    }

    /// Writing the same export again replaces its rows; another export's stay.
    @Test func anImportIsReplacedAndOthersKept() throws {
        let result = try CommandRunner.run("""
            $STEPIMPORT apple samples/export.zip -q -o days.sqlite --by-source
            $STEPIMPORT hc 'samples/Health Connect.zip' -q -o days.sqlite
            sqlite3() { python3 -c 'import sqlite3,sys; [print("|".join(map(str, r))) for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])]' "$@"; }
            sqlite3 days.sqlite "SELECT count(*) FROM days JOIN imports ON imports.id = import_id WHERE file LIKE '%Health Connect.zip'" > before
            $STEPIMPORT apple samples/export.zip -q -o days.sqlite --since 2024-04-20
            sqlite3 days.sqlite "SELECT count(*) FROM days JOIN imports ON imports.id = import_id WHERE file LIKE '%Health Connect.zip'" > after
            cmp before after || exit 1
            sqlite3 days.sqlite "SELECT count(*) FROM imports"
            sqlite3 days.sqlite "SELECT min(date), count(*) FROM days JOIN imports ON imports.id = import_id WHERE file LIKE '%export.zip'"
            sqlite3 days.sqlite "SELECT count(*) FROM source_days"
            ls -A
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self) == "2\n2024-04-20|9\n0\nafter\nbefore\ndays.sqlite\nfixtures\nsamples\n")
    }
}
