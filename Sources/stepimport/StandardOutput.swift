import Glibc
import HealthDays

/// Writes results to standard output with `write(2)`, so that a full disk or a closed pipe is
/// an error to report (FileHandle would crash on it).
enum StandardOutput {
    struct WriteError: Error, CustomStringConvertible {
        let code: Int32
        var description: String { String(cString: strerror(code)) }
    }

    static func write(_ text: String) throws(WriteError) {
        var text = text
        let failure: Int32? = text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(1, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure { throw WriteError(code: failure) }
    }
}
