import HealthDays
/// One piece of an XML document as `PiecePipeline` hands it out: where it sits in the
/// document and how it may be parsed on its own.
struct ParsePiece: Sendable {
    /// Position among the pieces, from 0.
    let index: Int
    /// Whether the piece ends where the scanner saw a boundary between two children of the root
    /// (false when the buffer filled up without one, and for the last piece).
    let endsAtBoundary: Bool
    /// Whether the document ends with this piece.
    let isLast: Bool
    /// Input bytes read (before filtering) by the time the piece was cut, for progress.
    let rawBytesRead: Int64
    /// Where the piece starts in the reader's output (the input with its prolog filtered; the
    /// body's control characters still in), to place failures.
    let filteredStart: Int64
    /// What the piece is parsed inside (the first piece, which starts the document, only takes
    /// the suffix); nil while the root's start tag has not been read.
    let frame: PieceFrame?

    /// Whether a worker can parse the piece on its own: it starts the document or follows a
    /// boundary, and it ends at one or at the end of the document.
    var standsAlone: Bool { endsAtBoundary || isLast }
}

/// The text around a piece that makes it a document: the declaration and root start tag before
/// it (one line), the root end tag after it.
struct PieceFrame: Sendable {
    let prefix: [UInt8]
    let suffix: [UInt8]
    /// The line of the root's start tag in the file (in the prefix it is on line 1).
    let rootLine: Int
}
