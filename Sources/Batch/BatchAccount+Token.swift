import BackendUpload
import Foundation

extension BatchAccount {
    /// Reads the account's bearer token from its file or environment variable, at the moment it
    /// is needed; messages name the place, never the value.
    public func readToken(environment: [String: String]) throws(UploadError) -> BearerToken {
        switch token {
        case nil:
            throw .configuration("no token_file or token_env for this account")
        case .file(let path)?:
            return try BearerToken.read(from: path, name: "token_file \(path)")
        case .environment(let name)?:
            guard let text = environment[name] else {
                throw .configuration("token_env \(name): the environment variable is not set")
            }
            guard let parsed = BearerToken(text) else {
                throw .configuration("token_env \(name): the value is empty or holds characters a bearer token cannot have")
            }
            return parsed
        }
    }
}
