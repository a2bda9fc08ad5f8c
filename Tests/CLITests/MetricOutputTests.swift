import Foundation
import Testing

/// `--metric` against the built binary: steps alone print exactly what they printed before, and
/// the steps column beside other metrics is the steps output's (docs/metrics.md, *Output*).
@Suite struct MetricOutputTests {
    static let export = "samples/export.zip"

    static func run(_ arguments: String) throws -> (stdout: String, stderr: String, status: Int32) {
        let result = try CommandRunner.run("$STEPIMPORT apple \(export) \(arguments)")
        return (String(decoding: result.stdout, as: UTF8.self), CommandRunner.normalize(result.stderr), result.status)
    }

    static let stepsForms = ["--metric steps", "--metric=steps", "--metric steps,steps", "--metric steps --metric steps"]

    @Test(arguments: ["", "--format csv", "--format json", "--by-source", "--by-source --format csv",
                      "--by-source --format json", "--tz Europe/Berlin --since 2024-04-01 --until 2024-04-10"])
    func metricStepsPrintsExactlyWhatNoMetricPrints(_ options: String) throws {
        let plain = try Self.run(options)
        #expect(plain.status == 0)
        #expect(!plain.stdout.isEmpty)
        for form in Self.stepsForms {
            let steps = try Self.run("\(options) \(form)")
            #expect(steps.status == plain.status, "\(form) \(options)")
            #expect(steps.stdout == plain.stdout, "stdout of \(form) \(options)")
            #expect(steps.stderr == plain.stderr, "stderr of \(form) \(options)")
        }
    }

    /// The rows of a CSV as `date=value` for one column, days without a value left out.
    static func column(_ csv: String, _ name: String) -> [String] {
        let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first, let index = header.firstIndex(of: name) else { return [] }
        return lines.dropFirst().compactMap { $0[index].isEmpty ? nil : "\($0[0])=\($0[index])" }
    }

    @Test func theStepsColumnBesideOtherMetricsIsTheStepsOutput() throws {
        let steps = try Self.run("--format csv")
        let all = try Self.run("--format csv --metric all")
        #expect(all.status == 0)
        let expected = Self.column(steps.stdout, "steps")
        #expect(expected.count > 40)
        #expect(Self.column(all.stdout, "steps") == expected)
        // Other metrics add days (sleep that ends on a day with no steps), never change a step day.
        #expect(Self.column(all.stdout, "date").count >= expected.count)

        // By source: each steps row of the long form is a row of the steps output.
        let stepsBySource = try Self.run("--format csv --by-source").stdout.split(separator: "\n").dropFirst()
            .map { line -> String in
                let fields = line.split(separator: ",").map(String.init)
                return "\(fields[0]),steps,\(fields[2]),\(fields[1]),\(fields[3])"
            }
        let allBySource = try Self.run("--format csv --by-source --metric all").stdout.split(separator: "\n")
            .filter { $0.contains(",steps,") }.map(String.init)
        #expect(allBySource == stepsBySource)
    }
}
