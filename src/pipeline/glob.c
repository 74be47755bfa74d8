/* glob.c — gitignore's glob (see glob.h) over '/'-separated paths. The match works on segments:
 * a segment of the pattern matches one of the path by the classic one-star backtrack
 * (match_segment), and the pattern's "**" segments match runs of whole path segments by the same
 * backtrack one level up (kiln_glob_match). In both, only the latest star needs to be retried:
 * whatever an earlier star could absorb, the latest one can absorb too, so neither loop is
 * exponential (git's wildmatch recurses instead). */
#include "pipeline/glob.h"

#include <stddef.h>
#include <string.h>

typedef struct span {
    const char *s;
    size_t n;
} span;

/* The bytes of one UTF-8 character at s (at most n): 1 for ASCII and stray bytes. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
    size_t len = 1;
    if (s[0] >= 0xC0)
        while (len < n && len < 4 && (s[len] & 0xC0) == 0x80) len++;
    return len;
}

/* A class "[...]" at p[*pi] (p[*pi] == '['): whether byte c is in it, and *pi past the ']'.
 * False with *pi unchanged when the class is not closed (the '[' is then a literal). */
static bool match_class(span p, size_t *pi, unsigned char c, bool *in)
{
    size_t i = *pi + 1;
    bool negate = i < p.n && (p.s[i] == '!' || p.s[i] == '^');
    if (negate) i++;
    bool found = false, first = true;
    while (i < p.n && (p.s[i] != ']' || first)) {
        first = false;
        unsigned char lo = (unsigned char)p.s[i];
        if (lo == '\\' && i + 1 < p.n) lo = (unsigned char)p.s[++i];
        i++;
        unsigned char hi = lo;
        if (i + 1 < p.n && p.s[i] == '-' && p.s[i + 1] != ']') {
            hi = (unsigned char)p.s[i + 1];
            if (hi == '\\' && i + 2 < p.n) hi = (unsigned char)p.s[++i + 1];
            i += 2;
        }
        if (c >= lo && c <= hi) found = true;
    }
    if (i >= p.n) return false; /* no closing ']' */
    *pi = i + 1;
    *in = found != negate;
    return true;
}

/* One pattern element at p[*pi] against the path segment at s[si]: the bytes of s it takes
 * (0: no match), with *pi moved past the element. p[*pi] is not '*'. */
static size_t match_one(span p, size_t *pi, span s, size_t si)
{
    unsigned char c = (unsigned char)s.s[si];
    size_t i = *pi;
    if (p.s[i] == '?') {
        *pi = i + 1;
        return utf8_length((const unsigned char *)s.s + si, s.n - si);
    }
    if (p.s[i] == '[') {
        bool in;
        if (match_class(p, pi, c, &in)) return in ? 1 : 0;
    }
    if (p.s[i] == '\\' && i + 1 < p.n) i++;
    *pi = i + 1;
    return (unsigned char)p.s[i] == c ? 1 : 0;
}

/* Whether segment s (no '/') matches pattern segment p in whole. */
static bool match_segment(span p, span s)
{
    size_t pi = 0, si = 0, star_pi = 0, star_si = 0;
    bool star = false;
    while (si < s.n) {
        if (pi < p.n && p.s[pi] == '*') {
            while (pi < p.n && p.s[pi] == '*') pi++;
            star = true;
            star_pi = pi;
            star_si = si;
            continue;
        }
        size_t next = pi, took = pi < p.n ? match_one(p, &next, s, si) : 0;
        if (took) {
            pi = next;
            si += took;
            continue;
        }
        if (!star) return false;
        /* The star takes one more character and the rest is tried again. */
        star_si += utf8_length((const unsigned char *)s.s + star_si, s.n - star_si);
        pi = star_pi;
        si = star_si;
    }
    while (pi < p.n && p.s[pi] == '*') pi++;
    return pi == p.n;
}

/* The segment starting at s (up to '/' or the end). */
static span segment_at(const char *s)
{
    span r = {s, strcspn(s, "/")};
    return r;
}

/* The start of the segment after seg, or NULL when seg is the last. */
static const char *segment_next(span seg) { return seg.s[seg.n] == '/' ? seg.s + seg.n + 1 : NULL; }

static bool is_globstar(span seg) { return seg.n == 2 && seg.s[0] == '*' && seg.s[1] == '*'; }

bool kiln_glob_match(const char *pattern, const char *path)
{
    const char *p = pattern, *s = path;
    const char *star_p = NULL, *star_s = NULL; /* after the latest "**": pattern, path */
    while (s) {
        if (p) {
            span ps = segment_at(p);
            if (is_globstar(ps)) {
                const char *after = segment_next(ps);
                if (!after) return true; /* a last "**": one or more segments, and s has one */
                star_p = p = after;
                star_s = s;
                continue;
            }
            if (match_segment(ps, segment_at(s))) {
                p = segment_next(ps);
                s = segment_next(segment_at(s));
                continue;
            }
        }
        if (!star_p) return false;
        /* The "**" takes one more path segment and the rest is tried again. */
        star_s = segment_next(segment_at(star_s));
        if (!star_s) return false;
        p = star_p;
        s = star_s;
    }
    /* The path is used up: what is left of the pattern must be "**" segments that may match
     * nothing (not a last one, which needs a segment). */
    while (p) {
        span ps = segment_at(p);
        if (!is_globstar(ps) || !segment_next(ps)) return false;
        p = segment_next(ps);
    }
    return true;
}
