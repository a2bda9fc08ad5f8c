import Foundation
import Glibc
import Testing
@testable import ExportParsers
import HealthDays
import ExportInput
import TestSupport

/// No entity is ever expanded and no file or URL an export names is ever read: the prefilter
/// removes the DOCTYPE, and the parser would refuse to expand or load anything even without it
/// (its SAX handler has no entity, parameter-entity or external-subset callbacks).
@Suite struct AppleEntityTests {
    /// A folder for one test, with a FIFO whose opening by anyone is noticed.
    final class Trap {
        let folder: String
        let fifo: String
        let file: String

        init() {
            var template = Array("\(NSTemporaryDirectory())/entity-test-XXXXXX".utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            folder = String(cString: made!)
            fifo = folder + "/trap.fifo"
            file = folder + "/secret.txt"
            mkfifo(fifo, 0o600)
            // What a loaded file would bring in: a marker, and an entity that defines another.
            FileManager.default.createFile(atPath: file, contents: Data("SECRET-MARKER <!ENTITY leak \"SECRET-MARKER\">".utf8))
        }

        deinit {
            try? FileManager.default.removeItem(atPath: folder)
        }

        /// Runs `body` while another thread watches the FIFO: a reader blocked opening it lets a
        /// non-blocking writer open it, which also releases the reader (it sees the end at once).
        func watch(_ body: () -> Void) -> Bool {
            let done = Atomic(false)
            let opened = Atomic(false)
            let watcher = Thread { [fifo] in
                while !done.value {
                    let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
                    if descriptor >= 0 {
                        opened.value = true
                        close(descriptor)
                    }
                    usleep(2_000)
                }
            }
            watcher.start()
            body()
            usleep(50_000)
            done.value = true
            return opened.value
        }
    }

    /// A tiny lock-protected flag shared with the watcher thread.
    final class Atomic: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Bool
        init(_ value: Bool) { stored = value }
        var value: Bool {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    /// Hostile DOCTYPEs: internal entities, billion laughs, external entities, an external DTD and
    /// a parameter entity, all pointing at the trap's files.
    static func doctypes(_ trap: Trap) -> [(name: String, doctype: String)] {
        var laughs = "<!ENTITY l0 \"EXPANDED\">"
        for level in 1...10 {
            let previous = "&l\(level - 1);"
            laughs += "<!ENTITY l\(level) \"\(String(repeating: previous, count: 10))\">"
        }
        return [
            ("internal", "<!DOCTYPE HealthData [<!ENTITY x \"EXPANDED\">]>"),
            ("billion laughs", "<!DOCTYPE HealthData [\(laughs)<!ENTITY x \"&l10;\">]>"),
            ("external file", "<!DOCTYPE HealthData [<!ENTITY x SYSTEM \"file://\(trap.file)\">]>"),
            ("external fifo", "<!DOCTYPE HealthData [<!ENTITY x SYSTEM \"\(trap.fifo)\">]>"),
            ("external DTD", "<!DOCTYPE HealthData SYSTEM \"\(trap.fifo)\">"),
            ("parameter entity", "<!DOCTYPE HealthData [<!ENTITY % p SYSTEM \"\(trap.fifo)\"> %p;]>"),
            ("parameter entity file", "<!DOCTYPE HealthData [<!ENTITY % p SYSTEM \"file://\(trap.file)\"> %p;]>"),
            // iOS 16's broken DTD: libxml2 gives up on it, so reaching the entity shows it was removed.
            ("broken ATTLIST", "<!DOCTYPE HealthData [<!ENTITY x \"EXPANDED\"><!ATTLIST VisionPrescription type CDATA #REQUIRED]>"),
            ("network", "<!DOCTYPE HealthData SYSTEM \"http://127.0.0.1:9/x.dtd\" [<!ENTITY x SYSTEM \"http://127.0.0.1:9/x\">]>"),
        ]
    }

    /// A document with `doctype` whose step record's source is `&x;` (and another `&leak;`).
    static func document(_ doctype: String, prolog: String = "") -> [UInt8] {
        Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        \(prolog)\(doctype)
        <HealthData locale="en_US">
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="&x;" startDate="2024-01-01 10:00:00 +0100" endDate="2024-01-01 10:05:00 +0100" value="5"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="&leak;" startDate="2024-01-01 10:00:00 +0100" endDate="2024-01-01 10:05:00 +0100" value="6"/>
        </HealthData>

        """.utf8)
    }

    /// What a run made, as one text: every source name and the error, to look for markers in.
    static func everything(_ entries: [SampleCollector.Entry], _ error: (any Error)?) -> String {
        entries.map(\.source).joined(separator: "|") + "|" + (error.map { "\($0)" } ?? "")
    }

    @Test func theTrapNoticesAReader() {
        let trap = Trap()
        let opened = trap.watch {
            // What libxml2 would do to load the FIFO: open it for reading (blocks until a writer comes).
            let descriptor = open(trap.fifo, O_RDONLY)
            if descriptor >= 0 { close(descriptor) }
        }
        #expect(opened)
        #expect(!trap.watch {}, "nobody opened it")
    }

    @Test func theParserAloneExpandsNothingAndReadsNothing() {
        let trap = Trap()
        for (name, doctype) in Self.doctypes(trap) {
            let collector = SampleCollector()
            var failure: ParseFailure?
            let opened = trap.watch {
                let parser = AppleHealthParser(sink: collector, invalidRecords: .fail)
                do throws(ParseFailure) {
                    // No prefilter: the DOCTYPE reaches libxml2.
                    try parser.feed(Self.document(doctype))
                    try parser.finish()
                } catch {
                    failure = error
                }
            }
            let seen = Self.everything(collector.entries, failure)
            #expect(!opened, "\(name): the FIFO was opened")
            #expect(!seen.contains("EXPANDED") && !seen.contains("SECRET"), "\(name): \(seen)")
            #expect(failure?.kind == .malformed, "\(name): an undefined entity is an error, got \(seen)")
        }
    }

    @Test(arguments: [0, 2])
    func theImportRemovesTheDoctypeWhateverStandsBeforeIt(workers: Int) {
        let trap = Trap()
        // Markup that used to end the prefilter's search for the DOCTYPE.
        let prologs = ["", "<!-- <a> -->\n", "<?pi <b>?>\n", "<!-- --><?x?><!---->\n"]
        for (name, doctype) in Self.doctypes(trap) {
            for prolog in prologs {
                let collector = SampleCollector()
                var failure: ExportError?
                var summary: AppleImportSummary?
                let opened = trap.watch {
                    do throws(ExportError) {
                        var options = ImportOptions()
                        options.parseWorkers = workers
                        options.pieceSize = 64
                        summary = try AppleHealthImport.read(MemoryStream(Self.document(doctype, prolog: prolog)),
                                                             into: collector, options: options)
                    } catch {
                        failure = error
                    }
                }
                let seen = Self.everything(collector.entries, failure)
                #expect(!opened, "\(name) after \(prolog): the FIFO was opened")
                #expect(!seen.contains("EXPANDED") && !seen.contains("SECRET"), "\(name) after \(prolog): \(seen)")
                guard case .malformed(_, let position, let problem)? = failure else {
                    Issue.record("\(name) after \(prolog): expected an undefined entity, got \(seen) \(String(describing: summary))")
                    continue
                }
                #expect(problem.contains("Entity 'x' not defined"), "\(name): \(problem)")
                #expect(position.line == 4 + prolog.filter { $0 == "\n" }.count, "the DOCTYPE's removal keeps the lines")
            }
        }
    }
}
