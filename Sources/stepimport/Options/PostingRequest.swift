import CommandLineKit

/// What a command's arguments fill in that takes `--post` and the options that go with it, so
/// that each posting option and its checks are declared once for `apple`, `hc` and `batch` (each
/// command words its help).
protocol PostingRequest: SendableMetatype {
    var post: PostOptions? { get set }
}

extension PostingRequest {
    /// The posting options as they are read; the first one creates them. A posting option given
    /// without `--post` is refused by the group's gate, so `post` is set only with `--post`.
    var posting: PostOptions {
        get { post ?? PostOptions() }
        set { post = newValue }
    }
}

extension Option where Options: PostingRequest {
    static func post(help: HelpProse, manual: HelpProse? = nil) -> Option {
        .flag("--post", help: help) { $0.post = $0.post ?? PostOptions() }.manual(manual ?? help)
    }

    static func apiURL(help: HelpProse, manual: HelpProse? = nil) -> Option {
        .value("--api-url", value: "url", help: help) { $0.posting.apiURL = $1 }.manual(manual ?? help).usage(.helpOnly)
    }

    static func caCertificate(help: HelpProse) -> Option {
        .value("--cacert", value: "file", help: help) { $0.posting.caCertificateFile = $1 }.usage(.helpOnly)
    }

    static func proxy(help: HelpProse, manual: HelpProse? = nil) -> Option {
        .value("--proxy", value: "url", help: help) { $0.posting.proxy = $1 }.manual(manual ?? help).usage(.helpOnly)
    }

    static func sendAll(help: HelpProse, manual: HelpProse? = nil) -> Option {
        .flag("--send-all", help: help) { $0.posting.sendAll = true }.manual(manual ?? help).usage(.helpOnly)
    }

    static func plan(help: HelpProse, manual: HelpProse? = nil) -> Option {
        .flag("--plan", help: help) { $0.posting.plan = true }.manual(manual ?? help).usage(.helpOnly)
    }

    static func keepExisting(help: HelpProse, manual: HelpProse? = nil) -> Option {
        .flag("--keep-existing", help: help) { $0.posting.keepExisting = true }.manual(manual ?? help).usage(.helpOnly)
    }

    static func dryRun(help: HelpProse, manual: HelpProse? = nil) -> Option {
        .flag("--dry-run", help: help) { $0.posting.dryRun = true }.manual(manual ?? help).usage(.helpOnly)
    }

    static func retries(help: HelpProse, manual: HelpProse? = nil) -> Option {
        .value("--retries", value: "n", help: help) { (request, text) throws(Rejection) in
            guard let retries = Int(text), (0...20).contains(retries) else {
                throw Rejection("--retries needs a whole number from 0 to 20, got '\(text)'")
            }
            request.posting.retries = retries
        }.manual(manual ?? help).usage(.helpOnly)
    }

    static func timeout(help: HelpProse) -> Option {
        .value("--timeout", value: "seconds", help: help) { (request, text) throws(Rejection) in
            guard let seconds = Int(text), (1...3600).contains(seconds) else {
                throw Rejection("--timeout needs a number of seconds from 1 to 3600, got '\(text)'")
            }
            request.posting.timeoutSeconds = seconds
        }.usage(.helpOnly)
    }
}

extension Refusal {
    /// `--token`: a secret never comes from the command line.
    static let token = Refusal(["--token"], message: "a token is never taken from the command line (it would show in ps and shell history): set STEPIMPORT_TOKEN or pass --token-file PATH")
}

extension OptionRule {
    /// `--plan` reads the server, `--dry-run` shows the batches: one or the other.
    static let planOrDryRun = OptionRule.exclusive("--plan", "--dry-run", reason: "--plan reads the server and shows each day, --dry-run shows the batches")
}
