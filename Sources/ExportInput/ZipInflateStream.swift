import CISAL
import CLibZip
import HealthDays
import Synchronization

/// Which inflater reads a zip's deflated entries.
public enum ZipInflater: UInt8, Sendable {
    /// ISA-L's igzip (the default): 2 to 2.6 times zlib's speed on exports.
    case isal
    /// libzip's own path through zlib: a diagnostic (`STEPIMPORT_INFLATE=zlib`), so that tests and
    /// the benchmark can compare both.
    case zlib

    private static let chosen = Atomic<UInt8>(ZipInflater.isal.rawValue)

    /// The inflater for entries opened without naming one. The executable sets it once, before
    /// anything is read.
    public static var processDefault: ZipInflater {
        get { ZipInflater(rawValue: chosen.load(ordering: .relaxed)) ?? .isal }
        set { chosen.store(newValue.rawValue, ordering: .relaxed) }
    }

    /// The version of ISA-L's headers this build was made against (`2.30.0`): ISA-L has no call
    /// that reports the version of the library it runs with, but its soname (`libisal.so.2`) pins the ABI.
    public static var isalVersion: String {
        let version = stepimport_isal_version()
        return "\(version >> 16).\(version >> 8 & 0xFF).\(version & 0xFF)"
    }
}

/// The inflated bytes of a deflated zip entry: libzip reads the entry's raw deflate stream
/// (`ZIP_FL_COMPRESSED`, so libzip still handles the directory, Zip64 and data descriptors) and
/// ISA-L inflates it, keeping the CRC-32 of what it wrote (`ISAL_GZIP_NO_HDR`).
///
/// It ends as libzip's own reading (1.7) ends, with the same words: the stream's final block or
/// the end of the compressed bytes ends the entry (bytes after the final block are ignored), and
/// then the CRC-32 must be the directory's ("CRC error"), which also catches a cut stream; a
/// stream that is not deflate fails as zlib's "data error". The declared uncompressed size is
/// not checked, as libzip does not check it: the CRC-32 vouches for the bytes. As with libzip,
/// the bytes inflated before a failure are handed over first and the failure comes on the next read.
final class ZipInflateStream: ByteStream {
    /// Compressed bytes read from libzip at a time (a megabyte or more of an export's XML); with the
    /// inflate state (85 KiB), the stream's whole memory. Small, as the locator opens every
    /// member to read its head.
    static let inputSize = 64 * 1024
    /// zlib's `Z_DATA_ERROR`: libzip words an invalid stream with it.
    private static let zlibDataError: Int32 = -3

    let location: InputLocation
    let totalBytes: Int64?
    let compressedBytes: Int64?
    /// Held so that the archive outlives its open entry.
    private let archive: ZipArchive
    private let compressed: OpaquePointer
    private let expectedCRC: UInt32
    private let state: UnsafeMutablePointer<inflate_state>
    private let input: UnsafeMutableRawBufferPointer
    /// Whether libzip has no more compressed bytes.
    private var inputEnded = false
    /// Whether the entry ended and its CRC-32 matched: reads return 0 from now on.
    private var finished = false
    /// The failure found after bytes still to be handed over; thrown on this read and every one after.
    private var failure: ExportError?

    init(archive: ZipArchive, compressed: OpaquePointer, entry: ZipArchive.Entry, crc: UInt32) {
        self.archive = archive
        self.compressed = compressed
        self.location = archive.location.entering(entry.name)
        self.totalBytes = entry.size
        self.compressedBytes = entry.compressedSize
        self.expectedCRC = crc
        state = .allocate(capacity: 1)
        isal_inflate_init(state)
        state.pointee.crc_flag = UInt32(ISAL_GZIP_NO_HDR)
        input = .allocate(byteCount: Self.inputSize, alignment: 64)
    }

    deinit {
        zip_fclose(compressed)
        state.deallocate()
        input.deallocate()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ExportError) -> Int {
        if let failure { throw failure }
        guard !finished, let out = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let room = UInt32(clamping: buffer.count)
        state.pointee.next_out = out.assumingMemoryBound(to: UInt8.self)
        state.pointee.avail_out = room
        var ended = false
        while state.pointee.avail_out > 0 && !ended {
            if state.pointee.avail_in == 0 && !inputEnded {
                let count = zip_fread(compressed, input.baseAddress, UInt64(input.count))
                if count < 0 {
                    failure = .badArchive(location, reason: String(cString: zip_error_strerror(zip_file_get_error(compressed))))
                    break
                }
                if count == 0 {
                    inputEnded = true
                } else {
                    state.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
                    state.pointee.avail_in = UInt32(count)
                }
            }
            let (inBefore, outBefore) = (state.pointee.avail_in, state.pointee.avail_out)
            let status = isal_inflate(state)
            let stalled = state.pointee.avail_in == inBefore && state.pointee.avail_out == outBefore && inBefore > 0
                && state.pointee.block_state != ISAL_BLOCK_FINISH
            // A call that neither took input nor gave output would loop for ever: taken as a bad stream.
            if status < 0 || stalled {
                failure = .badArchive(location, reason: ZipArchive.libzipReason(ZIP_ER_ZLIB, systemError: Self.zlibDataError))
                break
            }
            // ISA-L returns when the input is used up or the output is full: with room left and
            // nothing more to read, whatever it could inflate is out.
            ended = state.pointee.block_state == ISAL_BLOCK_FINISH
                || (inputEnded && state.pointee.avail_in == 0 && state.pointee.avail_out > 0)
        }
        if ended && failure == nil {
            if state.pointee.crc == expectedCRC {
                finished = true
            } else {
                failure = .badArchive(location, reason: ZipArchive.libzipReason(ZIP_ER_CRC))
            }
        }
        let produced = Int(room - state.pointee.avail_out)
        if produced > 0 { return produced }
        if let failure { throw failure }
        return 0
    }
}
