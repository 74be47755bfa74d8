/* test_ignore.c — glob.h (gitignore's glob with whole-segment "**") over a table of cases and a
 * pathological pattern, and ignore.h (lines of .kilnignore: comments, negation, folders only,
 * anchoring, depth) with an allocator that checks sizes and fails each call in turn. */
#include "support.h"

#include <stdio.h>
#include <string.h>

#include "counting_alloc.h"
#include "pipeline/glob.h"
#include "pipeline/ignore.h"

static void glob_matches_the_table(void **state)
{
    (void)state;
    static const struct {
        const char *pattern, *path;
        bool match;
    } cases[] = {
        {"a.png", "a.png", true},
        {"a.png", "b.png", false},
        {"a.png", "x/a.png", false}, /* no implicit depth: ignore.c adds it */
        {"*.png", "a.png", true},
        {"*.png", ".png", true},
        {"*.png", "x/a.png", false}, /* '*' stops at '/' */
        {"*", "abc", true},
        {"*", "a/b", false},
        {"a*b*c", "abxbyc", true},
        {"a*b*c", "abxbycd", false},
        {"a***b", "aXb", true}, /* a run of stars inside a segment is one star */
        {"?.png", "a.png", true},
        {"?.png", "ab.png", false},
        {"?.png", "\xc3\xa9.png", true}, /* one UTF-8 character, two bytes */
        {"a?b", "a/b", false},
        {"[ab].png", "b.png", true},
        {"[ab].png", "c.png", false},
        {"[!ab].png", "c.png", true},
        {"[^ab].png", "a.png", false},
        {"[a-c]x", "bx", true},
        {"[a-c]x", "dx", false},
        {"[]]x", "]x", true},
        {"[x", "[x", true}, /* unclosed: a literal '[' */
        {"\\*.png", "*.png", true},
        {"\\*.png", "a.png", false},
        {"\\[a]", "[a]", true},
        {"**", "a", true},
        {"**", "a/b/c", true},
        {"**/a.png", "a.png", true},
        {"**/a.png", "x/y/a.png", true},
        {"**/a.png", "x/y/b.png", false},
        {"raw/**", "raw/a.png", true},
        {"raw/**", "raw/x/y/a.png", true},
        {"raw/**", "raw", false}, /* inside raw, not raw itself */
        {"raw/**", "rawx/a", false},
        {"a/**/b", "a/b", true},
        {"a/**/b", "a/x/b", true},
        {"a/**/b", "a/x/y/b", true},
        {"a/**/b", "a/x/y/c", false},
        {"a/**/b/**/c", "a/1/b/2/3/c", true},
        {"a/**/b/**/c", "a/1/b/2/3/d", false},
        {"**/x/**", "a/x/b", true},
        {"**/x/**", "x", false},
        {"a**b/c", "axxb/c", true}, /* "**" not a whole segment is a '*' */
        {"a**b/c", "ax/b/c", false},
        {"textures/*.png", "textures/a.png", true},
        {"textures/*.png", "textures/ui/a.png", false},
        {"", "a", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool got = kiln_glob_match(cases[i].pattern, cases[i].path);
        if (got != cases[i].match)
            fail_msg("glob \"%s\" on \"%s\": %d, want %d", cases[i].pattern, cases[i].path, got,
                     cases[i].match);
    }
}

static void glob_with_many_stars_is_not_exponential(void **state)
{
    (void)state;
    /* Backtracking by recursion takes ages on these; the one-star backtrack is quadratic. */
    char path[4096], pattern[256];
    memset(path, 'a', sizeof path - 1);
    path[sizeof path - 1] = '\0';
    strcpy(pattern, "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b");
    assert_false(kiln_glob_match(pattern, path));
    char deep[4096] = "";
    for (int i = 0; i < 600; i++) strcat(deep, "a/");
    strcat(deep, "c");
    assert_false(kiln_glob_match("**/a/**/a/**/a/**/a/**/a/**/b", deep));
    assert_true(kiln_glob_match("**/a/**/a/**/a/**/a/**/a/**/c", deep));
}

/* The rule deciding rel, as "<line>" or "!<line>" or "-" for none. */
static const char *decide(const kiln_ignore *ig, const char *rel, bool is_dir)
{
    static char out[32];
    const kiln_ignore_rule *r = kiln_ignore_match(ig, rel, is_dir);
    if (!r) return "-";
    snprintf(out, sizeof out, "%s%zu", r->negate ? "!" : "", r->line);
    return out;
}

static void ignore_lines_follow_gitignore(void **state)
{
    (void)state;
    kt_counting c;
    kiln_ignore ig = {*kt_counting_init(&c, true), NULL, 0, 0};
    static const char text[] = "# a comment\n"      /* 1 */
                               "\n"                 /* 2 */
                               "*.psd\n"            /* 3: any depth */
                               "raw/**\n"           /* 4: anchored, inside raw */
                               "!raw/keep.png\n"    /* 5 */
                               "build/\n"           /* 6: folders only, any depth */
                               "/top.png\n"         /* 7: anchored */
                               "docs/*.png   \n"    /* 8: trailing spaces dropped */
                               "\\#hash.png\n"      /* 9: literal '#' */
                               "\\!bang.png\n"      /* 10: literal '!' */
                               "space\\ \r\n"       /* 11: escaped space, CRLF */
                               "/\n"                /* 12: names nothing */
                               "**/cache/**/*.tmp"; /* 13: no newline at the end */
    kiln_error e;
    assert_int_equal(kiln_ignore_add_text(&ig, text, strlen(text), ".kilnignore", &e), KILN_OK);
    assert_int_equal(ig.count, 10);
    assert_string_equal(ig.rules[1].text, "raw/**");
    assert_string_equal(ig.rules[5].text, "docs/*.png");
    static const struct {
        const char *rel;
        bool is_dir;
        const char *want;
    } cases[] = {
        {"a.psd", false, "3"},
        {"x/y/a.psd", false, "3"},
        {"a.png", false, "-"},
        {"raw", true, "-"}, /* rule 4 is what is inside raw: raw is descended */
        {"raw/a.png", false, "4"},
        {"raw/keep.png", false, "!5"},
        {"raw/sub/keep.png", false, "4"},
        {"build", true, "6"},
        {"x/build", true, "6"},
        {"build", false, "-"}, /* a file named build is not a folder */
        {"top.png", false, "7"},
        {"x/top.png", false, "-"},
        {"docs/a.png", false, "8"},
        {"x/docs/a.png", false, "-"}, /* a middle slash anchors */
        {"#hash.png", false, "9"},
        {"!bang.png", false, "10"},
        {"space ", false, "11"},
        {"space", false, "-"},
        {"cache/x.tmp", false, "13"},
        {"a/cache/b/c/x.tmp", false, "13"},
        {"a/cache", true, "-"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *got = decide(&ig, cases[i].rel, cases[i].is_dir);
        if (strcmp(got, cases[i].want) != 0)
            fail_msg("\"%s\"%s: rule %s, want %s", cases[i].rel, cases[i].is_dir ? "/" : "", got,
                     cases[i].want);
    }
    kiln_ignore_free(&ig);
    assert_int_equal(ig.count, 0);
    kt_counting_assert_clean(&c);
}

static void ignore_pattern_too_long_names_its_line(void **state)
{
    (void)state;
    kiln_ignore ig = {{0}, NULL, 0, 0};
    char text[KILN_IGNORE_MAX_PATTERN + 32];
    memset(text, 'x', sizeof text);
    memcpy(text, "ok\n", 3);
    kiln_error e;
    assert_int_equal(kiln_ignore_add_text(&ig, text, sizeof text, ".kilnignore", &e), KILN_E_LIMIT);
    assert_non_null(strstr(e.message, ".kilnignore:2: "));
    assert_int_equal(ig.count, 1);
    kiln_ignore_free(&ig);
}

static void ignore_survives_each_failed_allocation(void **state)
{
    (void)state;
    static const char text[] = "a\nb/\n!c\n/d/e\nf\ng\nh\ni\nj\nk\nl\nm\nn\no\np\nq\nr\ns\n";
    for (size_t n = 1;; n++) {
        kt_counting c;
        kiln_ignore ig = {*kt_counting_init(&c, n % 2 == 0), NULL, 0, 0};
        c.fail_at = n;
        kiln_error e;
        kiln_result r = kiln_ignore_add_text(&ig, text, strlen(text), ".kilnignore", &e);
        kiln_ignore_free(&ig);
        kt_counting_assert_clean(&c);
        if (r == KILN_OK) {
            assert_int_equal(c.failures, 0);
            break;
        }
        assert_int_equal(r, KILN_E_OUT_OF_MEMORY);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(glob_matches_the_table),
        cmocka_unit_test(glob_with_many_stars_is_not_exponential),
        cmocka_unit_test(ignore_lines_follow_gitignore),
        cmocka_unit_test(ignore_pattern_too_long_names_its_line),
        cmocka_unit_test(ignore_survives_each_failed_allocation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
