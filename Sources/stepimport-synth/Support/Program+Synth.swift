import CommandLineKit

extension Program {
    /// stepimport-synth's table: its subcommands' tables and the prose of its page.
    static let synth = Program(
        "stepimport-synth",
        overview: "Generate deterministic synthetic health exports for tests and benchmarks.",
        commands: [AppleCommand.table, HealthConnectDatabaseCommand.table, HealthConnectJSONCommand.table],
        sections: [
            .synthExitStatus,
            HelpSection("EXAMPLES", body: """
                stepimport-synth apple --out samples/export.zip --days 45 --start 2024-03-15
                stepimport-synth apple --out /tmp/bench.xml --size 1G
                stepimport-synth hc-db --out "samples/Health Connect.zip" --days 60
                stepimport-synth hc-json --shape react-native --out /tmp/steps.json --days 30
                """),
        ],
        layout: HelpLayout(notation: .bare))
}

extension HelpSection {
    /// The exit statuses of every stepimport-synth page.
    static let synthExitStatus = HelpSection("EXIT STATUS", body: """
        0 success, 64 usage error, 73 cannot create the output, 74 write error.
        """)
}
