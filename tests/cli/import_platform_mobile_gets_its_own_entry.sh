# Format auto depends on the platform (BC7 on desktop, ASTC on mobile), so the key does too: a
# mobile import after a desktop one cooks its own entry instead of reusing the desktop one.
mkpng assets/a.png 8 8 1
k 0 import --json --all
expect_eq "$(j "d['records'][0]['summary']['format']")" bc7 "desktop"
k 0 import --json --all --platform mobile
expect_eq "$(j "(d['records'][0]['status'], d['records'][0]['summary']['format'])")" '["imported", "astc4x4"]' "mobile"
k 0 import --json --all --platform mobile --force
expect_eq "$(j "d['records'][0]['unchanged']")" true "mobile entry reproducible"
k 0 report --json
expect_eq "$(j "d['assets'][0]['state']")" up_to_date "desktop entry still there"
