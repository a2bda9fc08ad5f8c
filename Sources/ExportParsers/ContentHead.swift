/// What the first bytes of a file say, before any reader looks at them in detail.
enum ContentHead {
    /// The bytes after a UTF-8 byte-order mark and leading white space (space, tab, CR, LF):
    /// where a text format's first meaningful character stands.
    static func afterBOMAndSpace(_ head: [UInt8]) -> ArraySlice<UInt8> {
        var text = head[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        return text.drop(while: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
    }

    /// The first 16 bytes as text, for a message that quotes how a file starts, control
    /// characters escaped (line breaks too: a not-an-export message may have lines of its own).
    static func start(_ head: [UInt8]) -> String {
        String(decoding: head.prefix(16), as: UTF8.self).escapingControlCharacters()
    }
}
