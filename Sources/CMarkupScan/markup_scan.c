// See include/markup_scan.h. Each scan is written once for SSE2 (every x86-64 processor) and
// once for AVX2, and the first call picks the AVX2 one when the processor has it.
#include "markup_scan.h"

#if defined(__x86_64__)
#include <immintrin.h>

/// The rest of a tag byte by byte, from `i` (bytes of `p`), with the quotes counted so far.
static long tag_end_bytes(const uint8_t *p, long start, long i, long n, unsigned parity) {
    for (; i < n; i++) {
        uint8_t b = p[i];
        if (b == '>') {
            if (i == 0) return -1;
            return (parity & 1) ? -1 : start + i;
        }
        if (b == '<' || b == '\'' || b < 0x20) return -1;
        if (b == '"') parity ^= 1;
    }
    return -1;
}

/// The answer of a block of a tag (bits of its lanes: its `>`, its `"`, its bytes that spoil a
/// tag) that holds a `>` or a spoiling byte; -1 when the tag is not plain.
static inline long tag_stop(uint64_t close, uint64_t quotes, uint64_t others, long start, long i,
                            unsigned parity) {
    if (!close) return -1;
    uint64_t before = (close & (UINT64_C(0) - close)) - 1;
    long at = start + i + __builtin_ctzll(close);
    if (at == start || (others & before)) return -1;
    parity ^= (unsigned)__builtin_parityll(quotes & before);
    return (parity & 1) ? -1 : at;
}

/// The lanes of `v` that are `>`, `"`, and that spoil a tag (`<`, `'`, below 0x20), as bits.
#define SSE2_LANES(vector, close, quotes, others) do { \
        __m128i v_ = (vector); \
        __m128i low_ = _mm_cmpeq_epi8(_mm_min_epu8(v_, _mm_set1_epi8(0x1F)), v_); \
        __m128i other_ = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v_, _mm_set1_epi8('<')), \
                                                   _mm_cmpeq_epi8(v_, _mm_set1_epi8('\''))), low_); \
        (close) = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v_, _mm_set1_epi8('>'))); \
        (quotes) = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v_, _mm_set1_epi8('"'))); \
        (others) = (uint32_t)_mm_movemask_epi8(other_); \
    } while (0)

static long plain_tag_end_sse2(const uint8_t *base, long start, long end) {
    const uint8_t *p = base + start;
    long n = end - start;
    unsigned parity = 0;
    long i = 0;
    // 64 bytes a step, one test for the common block (no `>`, nothing that spoils the tag).
    for (; i + 64 <= n; i += 64) {
        uint64_t close = 0, quotes = 0, others = 0;
        for (int part = 0; part < 4; part++) {
            uint32_t c, q, o;
            SSE2_LANES(_mm_loadu_si128((const __m128i *)(p + i + 16 * part)), c, q, o);
            close |= (uint64_t)c << (16 * part);
            quotes |= (uint64_t)q << (16 * part);
            others |= (uint64_t)o << (16 * part);
        }
        if (close | others) return tag_stop(close, quotes, others, start, i, parity);
        parity ^= (unsigned)__builtin_parityll(quotes);
    }
    for (; i + 16 <= n; i += 16) {
        uint32_t c, q, o;
        SSE2_LANES(_mm_loadu_si128((const __m128i *)(p + i)), c, q, o);
        if (c | o) return tag_stop(c, q, o, start, i, parity);
        parity ^= (unsigned)__builtin_parity(q);
    }
    return tag_end_bytes(p, start, i, n, parity);
}

/// `SSE2_LANES` for 32 bytes.
#define AVX2_LANES(vector, close, quotes, others) do { \
        __m256i v_ = (vector); \
        __m256i low_ = _mm256_cmpeq_epi8(_mm256_min_epu8(v_, _mm256_set1_epi8(0x1F)), v_); \
        __m256i other_ = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v_, _mm256_set1_epi8('<')), \
                                                         _mm256_cmpeq_epi8(v_, _mm256_set1_epi8('\''))), low_); \
        (close) = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v_, _mm256_set1_epi8('>'))); \
        (quotes) = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v_, _mm256_set1_epi8('"'))); \
        (others) = (uint32_t)_mm256_movemask_epi8(other_); \
    } while (0)

__attribute__((target("avx2,popcnt,bmi")))
static long plain_tag_end_avx2(const uint8_t *base, long start, long end) {
    const uint8_t *p = base + start;
    long n = end - start;
    unsigned parity = 0;
    long i = 0;
    for (; i + 64 <= n; i += 64) {
        uint32_t c0, q0, o0, c1, q1, o1;
        AVX2_LANES(_mm256_loadu_si256((const __m256i *)(p + i)), c0, q0, o0);
        AVX2_LANES(_mm256_loadu_si256((const __m256i *)(p + i + 32)), c1, q1, o1);
        uint64_t close = (uint64_t)c1 << 32 | c0, quotes = (uint64_t)q1 << 32 | q0, others = (uint64_t)o1 << 32 | o0;
        if (close | others) return tag_stop(close, quotes, others, start, i, parity);
        parity ^= (unsigned)__builtin_parityll(quotes);
    }
    for (; i + 32 <= n; i += 32) {
        uint32_t c, q, o;
        AVX2_LANES(_mm256_loadu_si256((const __m256i *)(p + i)), c, q, o);
        if (c | o) return tag_stop(c, q, o, start, i, parity);
        parity ^= (unsigned)__builtin_parity(q);
    }
    return tag_end_bytes(p, start, i, n, parity);
}

/// The bytes the scan of a record left out stops at, among the 64 at `p`, as bits: `"`, `'`,
/// `<`, `>`, and every byte below 0x20.
static uint64_t special_bits_sse2(const uint8_t *p) {
    uint64_t bits = 0;
    for (int part = 0; part < 4; part++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * part));
        __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
        __m128i quotes = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\'')));
        __m128i angles = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('<')), _mm_cmpeq_epi8(v, _mm_set1_epi8('>')));
        __m128i found = _mm_or_si128(_mm_or_si128(quotes, angles), low);
        bits |= (uint64_t)(uint32_t)_mm_movemask_epi8(found) << (16 * part);
    }
    return bits;
}

__attribute__((target("avx2,popcnt,bmi")))
static uint64_t special_bits_avx2(const uint8_t *p) {
    uint64_t bits = 0;
    for (int part = 0; part < 2; part++) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(p + 32 * part));
        __m256i low = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1F)), v);
        __m256i quotes = _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')), _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\'')));
        __m256i angles = _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('<')), _mm256_cmpeq_epi8(v, _mm256_set1_epi8('>')));
        __m256i found = _mm256_or_si256(_mm256_or_si256(quotes, angles), low);
        bits |= (uint64_t)(uint32_t)_mm256_movemask_epi8(found) << (32 * part);
    }
    return bits;
}

/// The first byte from `at` that ends a record's type or makes the record pass (`"`, `&`, `<`, a
/// byte below 0x20), looked at in the 16-byte steps that fit before `limit`; -1 when none.
static long type_stop_sse2(const uint8_t *base, long at, long limit) {
    for (; at + 16 <= limit; at += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(base + at));
        __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
        __m128i stops = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('&'))),
                                     _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('<')), low));
        uint32_t bits = (uint32_t)_mm_movemask_epi8(stops);
        if (bits) return at + __builtin_ctz(bits);
    }
    return -1;
}

__attribute__((target("avx2,popcnt,bmi")))
static long type_stop_avx2(const uint8_t *base, long at, long limit) {
    for (; at + 32 <= limit; at += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(base + at));
        __m256i low = _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1F)), v);
        __m256i stops = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')), _mm256_cmpeq_epi8(v, _mm256_set1_epi8('&'))),
                                        _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('<')), low));
        uint32_t bits = (uint32_t)_mm256_movemask_epi8(stops);
        if (bits) return at + (long)_tzcnt_u32(bits);
    }
    // The 16 bytes that may be left: the same steps as the SSE2 scan.
    return type_stop_sse2(base, at, limit);
}

/// 1 when the AVX2 scans are used, 0 when the SSE2 ones, -1 before the first call decides.
static int avx2_chosen = -1;

static int uses_avx2(void) {
    // Decided once; two first calls at once write the same value.
    int chosen = __atomic_load_n(&avx2_chosen, __ATOMIC_RELAXED);
    if (chosen < 0) {
        __builtin_cpu_init();
        chosen = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("popcnt");
        __atomic_store_n(&avx2_chosen, chosen, __ATOMIC_RELAXED);
    }
    return chosen;
}

long stepimport_plain_tag_end(const uint8_t *base, long start, long end) {
    if (start >= end) return -1;
    return uses_avx2() ? plain_tag_end_avx2(base, start, end) : plain_tag_end_sse2(base, start, end);
}

long stepimport_plain_tag_end_sse2(const uint8_t *base, long start, long end) {
    if (start >= end) return -1;
    return plain_tag_end_sse2(base, start, end);
}

long stepimport_type_stop(const uint8_t *base, long start, long limit) {
    return uses_avx2() ? type_stop_avx2(base, start, limit) : type_stop_sse2(base, start, limit);
}

long stepimport_type_stop_sse2(const uint8_t *base, long start, long limit) {
    return type_stop_sse2(base, start, limit);
}

uint64_t stepimport_special_bits(const uint8_t *p) {
    return uses_avx2() ? special_bits_avx2(p) : special_bits_sse2(p);
}

uint64_t stepimport_special_bits_sse2(const uint8_t *p) {
    return special_bits_sse2(p);
}

int stepimport_markup_scan_uses_avx2(void) {
    return uses_avx2();
}

// MARK: - A run of records left out

static inline int is_name_start(uint8_t b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || b == '_' || b == ':' || b >= 0x80;
}

static inline int is_xml_space(uint8_t b) {
    return b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D;
}

/// `<Record type="` as two little-endian words: its first eight bytes and its last eight.
static inline int opens_record(const uint8_t *p) {
    uint64_t head, tail;
    __builtin_memcpy(&head, p, 8);
    __builtin_memcpy(&tail, p + 6, 8);
    return head == UINT64_C(0x2064726F6365523C) && tail == UINT64_C(0x223D657079742064);
}

/// The type's closing quote of the record whose `<` is at `open` when that record is one to leave
/// out (see the header); -1 when it is not, or cannot be told.
static long type_left_out(const uint8_t *base, long open, long end, const stepimport_skip_types *types) {
    if (end - open < 15 || !opens_record(base + open)) return -1;
    long type_start = open + 14;
    long limit = type_start + 256 < end ? type_start + 256 : end;
    long stop = stepimport_type_stop(base, type_start, limit);
    if (stop < 0) {
        // The bytes after the last whole step of sixteen, one by one.
        stop = type_start + ((limit - type_start) & ~15L);
        while (stop < limit) {
            uint8_t b = base[stop];
            if (b == '"' || b == '&' || b == '<' || b < 0x20) break;
            stop++;
        }
        if (stop >= limit) return -1;
    }
    if (base[stop] != '"' || stop + 1 >= end) return -1;
    uint8_t after = base[stop + 1];
    if (!is_xml_space(after) && after != '/' && after != '>') return -1;
    long length = stop - type_start;
    // The last eight bytes first (Apple's `...HeartRate` and `...StepCount` are of one length),
    // then the whole.
    uint64_t tail = 0;
    if (length >= 8) __builtin_memcpy(&tail, base + stop - 8, 8);
    const uint8_t *type = types->bytes;
    for (long index = 0; index < types->count; index++) {
        long wanted = types->lengths[index];
        if (wanted == length) {
            uint64_t wanted_tail = 0;
            if (length >= 8) __builtin_memcpy(&wanted_tail, type + length - 8, 8);
            if (wanted_tail == tail && __builtin_memcmp(type, base + type_start, (size_t)length) == 0) return -1;
        }
        type += wanted;
    }
    return stop;
}

void stepimport_skip_records(const uint8_t *base, long start, long end, uint8_t *out,
                             const stepimport_skip_types *types, stepimport_skip_run *run) {
    long at = start;
    long write = run->write;
    long line_feeds = 0;
    long last_line_feed = -1;
    for (;;) {
        // The white space before the next child of the root, written as it is.
        while (at < end) {
            uint8_t b = base[at];
            if (b == '\n') {
                line_feeds++;
                last_line_feed = at;
            } else if (b != ' ' && b != '\t') {
                break;
            }
            out[write++] = b;
            at++;
        }
        if (at >= end || base[at] != '<') return;
        long quote = type_left_out(base, at, end, types);
        if (quote < 0) return;
        // Its start tag, then its children up to its own end tag; only line feeds are written.
        long close = stepimport_plain_tag_end(base, quote + 1, end);
        if (close < 0) return;
        long depth = base[close - 1] == '/' ? 0 : 1;
        at = close + 1;
        while (depth > 0) {
            while (at < end && base[at] != '<') {
                uint8_t b = base[at];
                if (b == '\n') {
                    out[write++] = '\n';
                    line_feeds++;
                    last_line_feed = at;
                } else if (b < 0x20 && b != '\t' && b != '\r') {
                    return;
                }
                at++;
            }
            if (at + 2 >= end) return;
            uint8_t next = base[at + 1];
            if (next == '/') {
                long end_close;
                if (depth == 1 && end - at > 8 && base[at + 8] == '>') {
                    // `</Record>` as Apple writes it: its `>` where the name ends (no `>` before).
                    end_close = at + 8;
                } else {
                    const uint8_t *found = __builtin_memchr(base + at + 2, '>', (size_t)(end - at - 2));
                    if (!found) return;
                    end_close = found - base;
                }
                long byte = at + 2;
                if (depth == 1) {
                    if (end_close - byte < 6 || __builtin_memcmp(base + byte, "Record", 6) != 0) return;
                    for (byte += 6; byte < end_close; byte++) {
                        uint8_t b = base[byte];
                        if (b != 0x20 && b != 0x09 && b != 0x0D) return;
                    }
                } else {
                    for (; byte < end_close; byte++) {
                        uint8_t b = base[byte];
                        if (b == '<' || b < 0x20) return;
                    }
                }
                depth--;
                at = end_close + 1;
            } else if (is_name_start(next) && depth < types->max_depth && next != types->refused_child_start) {
                long child_close = stepimport_plain_tag_end(base, at + 2, end);
                if (child_close < 0) return;
                if (base[child_close - 1] != '/') depth++;
                at = child_close + 1;
            } else {
                return;
            }
        }
        run->read = at;
        run->write = write;
        run->records++;
        run->line_feeds += line_feeds;
        if (last_line_feed >= 0) run->last_line_feed = last_line_feed;
        line_feeds = 0;
        last_line_feed = -1;
    }
}

#else

// Elsewhere the callers keep their Swift scans.
int stepimport_markup_scan_uses_avx2(void) {
    return 0;
}

#endif
