# Two sources of equal bytes and settings have one key. When the two workers of an import cook
# them at the same moment (adjacent names: each worker takes the next asset), the one that
# publishes second finds the entry there and is reported cached, as it would have been a moment
# later: the totals are the same whatever the timing. Before, both said "imported" whenever they
# met, and the counts depended on the workers' timing.
printf '{"texture": {"quality": "fast"}}\n' >assets/folder.meta # quick under the sanitizers
for i in 1 2 3 4 5 6; do
    mkpng assets/p${i}a.png 96 96 $i
    cp assets/p${i}a.png assets/p${i}b.png
done
for run in 1 2; do
    rm -rf .kiln
    k 0 import --all -j 2 --json
    expect_eq "$(j "(d['totals']['imported'], d['totals']['cached'])")" '[6, 6]' \
        "run $run: each pair cooked once, the other cached"
    expect_eq "$(j "sorted(set(r['key'] for r in d['records'])).__len__()")" 6 "six keys"
done
