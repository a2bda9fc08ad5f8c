import Testing
@testable import ExportParsers

/// The selector's reading of Apple's mark of a hand entry in a record's children: what it reads
/// itself, and what it leaves to libxml2 (unclear) or to more bytes (undecided).
@Suite struct AppleHandEntryTests {
    private func children(_ text: String) -> AppleHandEntry.Children {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { AppleHandEntry.children($0.baseAddress!, from: 0, end: $0.count) }
    }

    @Test func applesOwnFormIsRead() {
        #expect(children("\n  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n </Record>\n") == .enteredByHand)
        #expect(children("\n  <MetadataEntry key=\"HKWasUserEntered\" value=\"0\"/>\n </Record>") == .typed)
        #expect(children("\n  <MetadataEntry value=\"1\" key=\"HKWasUserEntered\"/>\n </Record>") == .enteredByHand)
        #expect(children("\n  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"1\"/>\n </Record>") == .typed)
        #expect(children("\n </Record>") == .typed)
    }

    @Test func theMarkAfterTheRecordsEndIsNotItsOwn() {
        #expect(children(" </Record>\n <Record><MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/></Record>") == .typed)
    }

    @Test func whatIsNotPlainGoesToLibxml2() {
        #expect(children("<MetadataEntry key='HKWasUserEntered' value='1'/></Record>") == .unclear)
        #expect(children("<MetadataEntry key=\"HKWasUserEntered\" value=\"&#49;\"/></Record>") == .unclear)
        #expect(children("<Other key=\"HKWasUserEntered\" value=\"1\"/></Record>") == .unclear)
        #expect(children("<MetadataEntry key=\"x\" value=\"HKWasUserEntered\"/></Record>") == .unclear)
        #expect(children("<MetadataEntry key=\"HKWasUserEntered\" value=\"0\"/><MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/></Record>")
                == .unclear, "two marks: libxml2 reads them all")
    }

    @Test func aRecordCutOffIsUndecided() {
        #expect(children("\n  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n </Rec") == .undecided)
    }
}
