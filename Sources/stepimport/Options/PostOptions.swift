/// How to post the totals (`--post` and the options that go with it).
struct PostOptions {
    var apiURL: String?
    var tokenFile: String?
    var caCertificateFile: String?
    /// `--proxy URL`: the proxy https requests tunnel through (else `https_proxy` and the like).
    var proxy: String?
    var retries = 5
    var timeoutSeconds = 60
    var sendAll = false
    var plan = false
    var keepExisting = false
    var dryRun = false
    var reportFile: String?
}
