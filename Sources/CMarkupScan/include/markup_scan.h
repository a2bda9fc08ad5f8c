// Byte scans of XML markup that need what Swift's SIMD types do not give: a vector's lanes as
// a bit mask in one instruction, and AVX2 where the processor has it (chosen at run time); and
// the commonest run of records left out, in one call. x86-64 only; elsewhere the callers keep
// their Swift scans and state machine.
#ifndef STEPIMPORT_MARKUP_SCAN_H
#define STEPIMPORT_MARKUP_SCAN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The offset from `base` of the `>` that ends a tag read from `start` (outside quotes, past its
/// name), when the tag is plain: the bytes from `start` to that `>` (the first at or after
/// `start`, before `end`) hold no `<`, no `'`, no byte below 0x20, and an even number of `"`,
/// and there is at least one of them. -1 otherwise, and when no `>` comes before `end`. Reads no
/// byte at or past `end`.
long stepimport_plain_tag_end(const uint8_t *base, long start, long end);

/// The offset from `base` of the first byte at or after `start` that ends a record's type or
/// makes the record pass: `"`, `&`, `<`, or a byte below 0x20, looked at sixteen bytes at a time
/// as far as whole steps of sixteen fit before `limit` (the bytes after are not looked at); -1
/// when none of them is one.
long stepimport_type_stop(const uint8_t *base, long start, long limit);

/// `stepimport_type_stop` with SSE2 whatever the processor has (for tests).
long stepimport_type_stop_sse2(const uint8_t *base, long start, long limit);

/// The bytes among the 64 at `p` that the scan of a record left out stops at, as bits (bit 0:
/// the first byte): `"`, `'`, `<`, `>`, and every byte below 0x20 (line feeds, control
/// characters). Reads exactly those 64 bytes.
uint64_t stepimport_special_bits(const uint8_t *p);

/// `stepimport_special_bits` with SSE2 whatever the processor has (for tests).
uint64_t stepimport_special_bits_sse2(const uint8_t *p);

/// `stepimport_plain_tag_end` with SSE2 whatever the processor has (for tests).
long stepimport_plain_tag_end_sse2(const uint8_t *base, long start, long end);

/// The types of the records that are not left out, and the rules of the children of one left out,
/// for `stepimport_skip_records`.
typedef struct {
    /// The types, one after the other, `lengths[i]` bytes each, `count` of them.
    const uint8_t *bytes;
    const long *lengths;
    long count;
    /// Elements open in a record left out, the record included, beyond which a child is not
    /// read here (the parser's limit).
    long max_depth;
    /// A child whose name starts with this byte is not read here (`R`, when nested step records
    /// are counted; 0 for none).
    uint8_t refused_child_start;
} stepimport_skip_types;

/// Where a run of records left out ended. The caller sets `read` and `write`; each record left
/// out moves them past it and adds to the counts.
typedef struct {
    /// Offset from `base` after the last record left out: the caller goes on from there.
    long read;
    /// Offset in `out` after what was written for them.
    long write;
    /// Records left out.
    long records;
    /// Line feeds read (and written), and the offset from `base` of the last of them (left as
    /// it was when there is none).
    long line_feeds;
    long last_line_feed;
} stepimport_skip_run;

/// Leaves out, from `start` (between two children of the root), the records that follow one
/// another in their commonest form, as `AppleRecordSelector` leaves them out byte by byte: each
/// is white space (space, tab, line feed; written to `out` as it is), then `<Record type="`, a
/// type of none of `types` (its first `"`, `&`, `<` or byte below 0x20 is its `"`, followed by
/// white space, `/` or `>`), a plain start tag (`stepimport_plain_tag_end`), and, unless it is
/// empty, children up to the record's own end tag: text without control characters, plain
/// start tags of names not starting with `refused_child_start` nesting under `max_depth`, and
/// end tags without `<` or bytes below 0x20, the record's own being `</Record` and spaces, tabs
/// or carriage returns before its `>`. Of a record, only line feeds are written. It stops
/// before the first child that is anything else, or that is cut off at `end`, and leaves that
/// child to the caller, as it leaves what it wrote after `run->write`. x86-64 only.
void stepimport_skip_records(const uint8_t *base, long start, long end, uint8_t *out,
                             const stepimport_skip_types *types, stepimport_skip_run *run);

/// Whether the AVX2 scans are used: 1 on an x86-64 processor with AVX2, BMI1 and POPCNT, else 0
/// (for tests).
int stepimport_markup_scan_uses_avx2(void);

#ifdef __cplusplus
}
#endif

#endif
