import CommandLineKit

/// One subcommand of stepimport-synth: its table, and how it runs with the arguments after its name.
struct SynthSubcommand: Sendable {
    let table: any CommandInterface
    let run: @Sendable ([String]) -> Int32
}

extension Program {
    /// Every subcommand, in the help page's order: `main.swift` runs the one named, so a new
    /// generator is one line here.
    static let synthSubcommands = [
        SynthSubcommand(table: AppleCommand.table, run: AppleCommand.run),
        SynthSubcommand(table: HealthConnectDatabaseCommand.table, run: HealthConnectDatabaseCommand.run),
        SynthSubcommand(table: HealthConnectJSONCommand.table, run: HealthConnectJSONCommand.run),
        SynthSubcommand(table: SamsungCommand.table, run: SamsungCommand.run),
    ]

    /// stepimport-synth's table: its subcommands' tables and the prose of its page.
    static let synth = Program(
        "stepimport-synth",
        overview: "Generate deterministic synthetic health exports for tests and benchmarks.",
        commands: synthSubcommands.map(\.table),
        sections: [
            .synthExitStatus,
            HelpSection("EXAMPLES", body: .asWritten("""
                stepimport-synth apple --out samples/export.zip --days 45 --start 2024-03-15
                stepimport-synth apple --out /tmp/bench.xml --size 1G
                stepimport-synth hc-db --out "samples/Health Connect.zip" --days 60
                stepimport-synth hc-json --shape react-native --out /tmp/steps.json --days 30
                stepimport-synth samsung --out /tmp/samsunghealth.zip --days 90
                """)),
        ],
        layout: HelpLayout(notation: .bare))
}

extension HelpSection {
    /// The exit statuses of every stepimport-synth page.
    static let synthExitStatus = HelpSection("EXIT STATUS", body: .asWritten("""
        0 success, 64 usage error, 73 cannot create the output, 74 write error.
        """))
}
