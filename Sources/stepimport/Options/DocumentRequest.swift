import CommandLineKit

/// `stepimport completions <shell>`: the completion script of one shell.
struct CompletionsRequest: Sendable {
    var shell = Shell.bash

    static let command = Command<CompletionsRequest>(
        "completions",
        abstract: "Print the completion script for bash, zsh or fish.",
        overview: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            Written from the same option tables as --help, so it completes every subcommand, option and choice \
            there is. The .deb and the tarball install the three scripts where each shell looks; after building \
            from source, scripts/install does.
            """,
        arguments: [
            Argument("shell", help: "bash, zsh or fish.", missing: "missing the shell (bash, zsh or fish)",
                     surplus: "one shell at a time", choices: Shell.allCases.map(\.rawValue)) { (request, text) throws(Rejection) in
                guard let shell = Shell(rawValue: text.lowercased()) else {
                    throw Rejection("unknown shell '\(text)' (use bash, zsh or fish)")
                }
                request.shell = shell
            },
        ],
        options: [],
        sections: [
            HelpSection("EXAMPLES", body: .asWritten("""
                stepimport completions bash \\
                  > ~/.local/share/bash-completion/completions/stepimport
                stepimport completions zsh > "${fpath[1]}/_stepimport"
                stepimport completions fish > ~/.config/fish/completions/stepimport.fish
                """)),
            HelpText.seeAlso,
        ])
}

/// `stepimport man`: the manual page.
struct ManualRequest: Sendable {
    static let command = Command<ManualRequest>(
        "man",
        abstract: "Print the manual page (roff).",
        overview: "Print the manual page stepimport(1) in roff.",
        discussion: """
            Written from the same option tables as --help: every subcommand with its usage, arguments, options \
            and sections, with the whole text of each option, zones, rules, metrics, examples and exit statuses. \
            The packages install it; to read it without installing: stepimport man | man -l -
            """,
        options: [],
        sections: [HelpText.seeAlso])
}
