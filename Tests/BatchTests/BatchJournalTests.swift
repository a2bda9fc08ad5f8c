import Foundation
import Testing
@testable import Batch

@Suite struct BatchJournalTests {
    private let noon = Date(timeIntervalSince1970: 1_773_144_000) // 2026-03-10T12:00:00Z

    private func done(_ account: String, written: Int = 90) -> BatchJournalEntry {
        BatchJournalEntry(account: account, status: .done, at: noon, daysParsed: 100, daysSent: written,
                          daysWritten: written, skipped: 100 - written)
    }

    private func failed(_ account: String, _ error: String = "the server kept failing: 503") -> BatchJournalEntry {
        BatchJournalEntry(account: account, status: .failed, at: noon, daysParsed: 100, daysSent: 0, daysWritten: 0,
                          skipped: 0, error: error)
    }

    private func text(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    private func append(_ path: String, _ bytes: [UInt8]) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    @Test func aLineHasTheDocumentedKeysInOrder() {
        #expect(done("ann").jsonLine == #"{"account":"ann","status":"done","at":"2026-03-10T12:00:00Z","daysParsed":100,"daysSent":90,"daysWritten":90,"skipped":10}"# + "\n")
        let line = failed("b\"o\\b", "line one\nline two\u{1}").jsonLine
        #expect(line == #"{"account":"b\"o\\b","status":"failed","at":"2026-03-10T12:00:00Z","daysParsed":100,"daysSent":0,"daysWritten":0,"skipped":0,"error":"line one\nline two\u0001"}"# + "\n")
    }

    /// `batch --output`: where the account's days went, after `skipped`, and read back.
    @Test func anEntryNamesWhereTheDaysWent() throws {
        let entry = BatchJournalEntry(account: "ann", status: .done, at: Date(timeIntervalSince1970: 1_773_144_000),
                                      daysParsed: 3, output: "out/ann.json")
        #expect(entry.jsonLine == #"{"account":"ann","status":"done","at":"2026-03-10T12:00:00Z","daysParsed":3,"daysSent":0,"daysWritten":0,"skipped":0,"output":"out/ann.json"}"# + "\n")
        #expect(try JSONDecoder().decode(BatchJournalEntry.self, from: Data(entry.jsonLine.utf8)) == entry)
        #expect(BatchJournal.defaultPath(forOutput: "out", isFolder: true) == "out/.stepimport.journal.jsonl")
        #expect(BatchJournal.defaultPath(forOutput: "out/", isFolder: true, shard: BatchShard(index: 2, count: 4)!)
            == "out/.stepimport.shard-2-of-4.journal.jsonl")
        #expect(BatchJournal.defaultPath(forOutput: "/d/days.sqlite", isFolder: false) == "/d/days.sqlite.journal.jsonl")
    }

    @Test func entriesSurviveReopening() throws {
        let folder = try BatchTestFolder()
        defer { folder.remove() }
        let path = folder.path + "/journal.jsonl"
        let journal = try BatchJournal(path: path)
        #expect(journal.created)
        #expect(journal.latest.isEmpty)
        try journal.record(done("ann"))
        try journal.record(failed("bob \"the\" builder", "weird\nerror"))
        #expect(journal.isDone("ann"))
        journal.close()
        #expect(throws: BatchError.self) { try journal.record(done("cat")) }

        let reopened = try BatchJournal(path: path)
        #expect(!reopened.created)
        #expect(reopened.repairedBytes == 0)
        #expect(reopened.latest == ["ann": done("ann"), "bob \"the\" builder": failed("bob \"the\" builder", "weird\nerror")])
        #expect(reopened.isDone("ann"))
        #expect(!reopened.isDone("bob \"the\" builder"))
        #expect(!reopened.isDone("nobody"))
        #expect(try text(path).split(separator: "\n").count == 2)
    }

    @Test func theLatestEntryOfAnAccountWins() throws {
        let folder = try BatchTestFolder()
        defer { folder.remove() }
        let path = folder.path + "/journal.jsonl"
        do {
            let journal = try BatchJournal(path: path)
            try journal.record(failed("ann"))
            try journal.record(done("ann"))
            try journal.record(done("bob"))
            try journal.record(failed("bob"))
            #expect(journal.isDone("ann"))
            #expect(!journal.isDone("bob"))
        }
        let reopened = try BatchJournal(path: path)
        #expect(reopened.isDone("ann"))
        #expect(!reopened.isDone("bob"))
        #expect(reopened.latest(for: "bob") == failed("bob"))
    }

    /// What kill -9 in the middle of a write leaves: part of a line, with or without garbage.
    @Test(arguments: [
        Array(#"{"account":"cat","status":"do"#.utf8),
        Array(#"{"account":"cat","status":"done","at":"2026-03-10T12:00:00Z","daysParsed":1,"daysSent":1,"daysWritten":1,"skipped":0}"#.utf8),
        [UInt8](repeating: 0, count: 40) + [0x0A],
        [0x7B],
    ])
    func aTornLastLineIsDroppedAndCutOffSoAppendsStayValid(_ tail: [UInt8]) throws {
        let folder = try BatchTestFolder()
        defer { folder.remove() }
        let path = folder.path + "/journal.jsonl"
        do {
            let journal = try BatchJournal(path: path)
            try journal.record(done("ann"))
        }
        let whole = try text(path)
        try append(path, tail)

        let repaired = try BatchJournal(path: path)
        #expect(repaired.repairedBytes == tail.count)
        #expect(!repaired.isDone("cat"), "a line not known to be whole does not count")
        #expect(try text(path) == whole)
        try repaired.record(done("dan"))
        repaired.close()

        let reopened = try BatchJournal(path: path)
        #expect(reopened.repairedBytes == 0)
        #expect(Set(reopened.latest.keys) == ["ann", "dan"])
    }

    @Test func aBrokenLineBeforeTheLastIsAnErrorNotSilentlyLost() throws {
        let folder = try BatchTestFolder()
        defer { folder.remove() }
        let path = try folder.write("journal.jsonl", done("ann").jsonLine + "{oops}\n" + done("bob").jsonLine)
        do {
            _ = try BatchJournal(path: path)
            Issue.record("opened")
        } catch {
            #expect(error.description.contains("line 2 is not a journal entry"))
        }
        #expect(try text(path) == done("ann").jsonLine + "{oops}\n" + done("bob").jsonLine, "left as it was")
    }

    @Test func blankLinesAreSkipped() throws {
        let folder = try BatchTestFolder()
        defer { folder.remove() }
        let path = try folder.write("journal.jsonl", "\n" + done("ann").jsonLine + "  \n")
        let journal = try BatchJournal(path: path)
        #expect(journal.isDone("ann"))
        #expect(journal.repairedBytes == 0)
    }

    @Test func creatingSyncsFileAndFolderAndEveryRecordSyncsTheFile() throws {
        let folder = try BatchTestFolder()
        defer { folder.remove() }
        let path = folder.path + "/journal.jsonl"
        do {
            let journal = try BatchJournal(path: path)
            #expect(journal.syncCount == 2)
            try journal.record(done("ann"))
            #expect(journal.syncCount == 3)
            try journal.record(done("bob"))
            #expect(journal.syncCount == 4)
        }
        let reopened = try BatchJournal(path: path)
        #expect(reopened.syncCount == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func onlyOneJournalHolderAtATime() throws {
        let folder = try BatchTestFolder()
        defer { folder.remove() }
        let path = folder.path + "/journal.jsonl"
        let first = try BatchJournal(path: path)
        do {
            _ = try BatchJournal(path: path)
            Issue.record("opened twice")
        } catch {
            #expect(error.description.contains("another stepimport batch is using it"))
        }
        first.close()
        _ = try BatchJournal(path: path)
    }

    @Test func aJournalInAMissingFolderCannotBeOpened() {
        #expect(throws: BatchError.self) { try BatchJournal(path: "/nonexistent/folder/journal.jsonl") }
    }

    @Test func parallelRecordsEachLandOnTheirOwnLine() async throws {
        let folder = try BatchTestFolder()
        defer { folder.remove() }
        let path = folder.path + "/journal.jsonl"
        let journal = try BatchJournal(path: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                let entry = done("trainee-\(index)")
                group.addTask { try journal.record(entry) }
            }
            try await group.waitForAll()
        }
        journal.close()
        let reopened = try BatchJournal(path: path)
        #expect(reopened.latest.count == 64)
        #expect(reopened.repairedBytes == 0)
    }

    @Test func theDefaultPathIsBesideTheManifestAndPerShard() {
        #expect(BatchJournal.defaultPath(forManifest: "/data/accounts.csv") == "/data/accounts.journal.jsonl")
        #expect(BatchJournal.defaultPath(forManifest: "accounts.csv") == "accounts.journal.jsonl")
        #expect(BatchJournal.defaultPath(forManifest: "runs/accounts.csv", shard: BatchShard(index: 2, count: 4)!)
                    == "runs/accounts.shard-2-of-4.journal.jsonl")
    }
}
