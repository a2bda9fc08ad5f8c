import Foundation
import Testing

/// What the outputs promise beyond one golden case: properties that hold for every input.
@Suite struct OutputTests {
    static func stdout(_ command: String) throws -> String {
        let result = try CommandRunner.run(command)
        #expect(result.status == 0, "\(command): \(result.stderr)")
        return String(decoding: result.stdout, as: UTF8.self)
    }

    /// `--by-source --format csv` starts with the plain CSV's columns, and its winning rows are the
    /// plain CSV's rows, so that one reader reads both.
    @Test(arguments: ["apple samples/export.zip", "hc 'samples/Health Connect.zip'", "hc samples/hc-react-native.json"])
    func bySourceCSVExtendsThePlainCSV(_ input: String) throws {
        let plain = try Self.stdout("$STEPIMPORT \(input) -q --format csv").split(separator: "\n")
        let bySource = try Self.stdout("$STEPIMPORT \(input) -q --format csv --by-source").split(separator: "\n")
        #expect(plain.first == "date,steps,source")
        #expect(bySource.first == "date,steps,source,winner")
        let winners = bySource.dropFirst().filter { $0.hasSuffix(",yes") }.map { $0.dropLast(",yes".count) }
        #expect(plain.count > 10)
        #expect(Array(plain.dropFirst()) == winners)
        #expect(bySource.count > plain.count, "the samples have days with more than one source")
    }

    /// ISA-L (the default) and libzip's zlib (`STEPIMPORT_INFLATE=zlib`) read a zip to the same
    /// output: an Apple export, and a Health Connect database copied out of its zip.
    @Test(arguments: ["apple samples/export.zip --by-source --format json", "apple samples/export.zip --metric all --format csv",
                      "hc 'samples/Health Connect.zip' --by-source --format json"])
    func isalAndZlibReadAZipTheSame(_ input: String) throws {
        let isal = try Self.stdout("STEPIMPORT_INFLATE=isal $STEPIMPORT \(input) -q")
        let zlib = try Self.stdout("STEPIMPORT_INFLATE=zlib $STEPIMPORT \(input) -q")
        #expect(isal.count > 500)
        #expect(isal == zlib)
    }
}

/// The reading threads run under `SCHED_BATCH` (so that they do not preempt each other at every
/// piece), unless `STEPIMPORT_SCHEDULING=default` asks for Linux's default policy. Each thread's
/// policy is read from `/proc` (field 41 of its `stat`: 3 is `SCHED_BATCH`, 0 `SCHED_OTHER`)
/// while the process waits for its standard input.
@Suite struct SchedulingTests {
    static func policies(_ environment: String) throws -> Set<String> {
        let script = """
            (sleep 1; unzip -p samples/export.zip apple_health_export/export.xml) \
              | \(environment) $STEPIMPORT apple - -q --format json > /dev/null &
            pid=$!
            sleep 0.5
            for stat in /proc/"$pid"/task/*/stat; do sed 's/.*) //' "$stat" | cut -d ' ' -f 39; done
            wait
            """
        let listed = try OutputTests.stdout(script)
        #expect(!listed.isEmpty, "the threads were listed")
        return Set(listed.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    @Test func everyThreadRunsUnderBatchScheduling() throws {
        #expect(try Self.policies("") == ["3"])
    }

    @Test func theDefaultPolicyOnRequest() throws {
        #expect(try Self.policies("STEPIMPORT_SCHEDULING=default") == ["0"])
    }
}
