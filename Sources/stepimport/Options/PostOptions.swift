/// How to post the totals (`--post` and the options that go with it).
struct PostOptions {
    var apiURL: String?
    var tokenFile: String?
    var caCertificateFile: String?
    var retries = 5
    var timeoutSeconds = 60
    var sendAll = false
    var plan = false
    var keepExisting = false
    var dryRun = false
    var reportFile: String?
}
