# Sizes in text output are for people, in binary units ("3.5 KiB"; below 1 KiB in bytes): report's
# cache, gc's freed and cache sizes, pack's summary. --max-size takes plain bytes or a size with
# a unit, coreutils' way: K M G T and KiB MiB GiB TiB are powers of 1024, KB MB GB TB powers of
# 1000, any case, a fraction with a unit (1.5G); the document keeps the bytes. Before, "50MB" was
# bad usage and every size a count of bytes.
mkpng assets/a.png 32 32 1
mkpng assets/b.png 32 32 2
k 0 import --all
k 0 report
expect_grep "; cache [0-9]*\.[0-9] KiB$" "$OUT" "report's cache size in KiB"
k 0 cache gc --max-size 1
# (what stays is the two records, about 1.3 KiB since they keep the resolved settings for
# report --why)
expect_grep "^removed 2 entries, freed [0-9]*\.[0-9] KiB; 0 entries kept, cache [0-9]*\.[0-9] KiB$" "$OUT" "gc's sizes"
for pair in 50MB:50000000 50MiB:52428800 50M:52428800 50mb:50000000 1.5G:1610612736 \
    1.5GiB:1610612736 2k:2048 2KB:2000 1T:1099511627776 100B:100 4096:4096 0.5K:512; do
    k 0 cache gc --max-size "${pair%%:*}" --json
    expect_eq "$(j "d['max_size']")" "${pair#*:}" "--max-size ${pair%%:*}"
done
for bad in 1.5 12XB 5KiBB -5 K 1e3 ' 5' 99999999999999999999 20E; do
    k 2 cache gc --max-size "$bad"
    expect_grep "takes a size" "$ERR" "--max-size $bad refused"
done
k 0 pack --all --compress none
expect_grep "^  [0-9.]* KiB of artifacts, [0-9.]* KiB packed (" "$OUT" "pack's summary"
k 0 pack --verify .kiln/game.kpak
expect_grep "every checksum matches: .*, [0-9]*\.[0-9] KiB$" "$OUT" "pack --verify's size"
