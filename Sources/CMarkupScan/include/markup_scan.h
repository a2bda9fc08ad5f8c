// Byte scans of XML markup that need what Swift's SIMD types do not give: a vector's lanes as
// a bit mask in one instruction, and AVX2 where the processor has it (chosen at run time).
// x86-64 only; elsewhere the callers keep their Swift scans.
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

/// Whether the AVX2 scans are used: 1 on an x86-64 processor with AVX2, BMI1 and POPCNT, else 0
/// (for tests).
int stepimport_markup_scan_uses_avx2(void);

#ifdef __cplusplus
}
#endif

#endif
