# A real photograph from the corpus (Kodak, 768x512 PNG) imports with a full mip chain, and its
# KTX2 inspects as what the import summary said. Skipped without the corpus.
src=${KILN_CORPUS:-}/images/kodak/kodim03.png
if [ -z "${KILN_CORPUS:-}" ] || [ ! -f "$src" ]; then
    echo "no corpus at '${KILN_CORPUS:-}'" >&2
    exit 77
fi
cp "$src" assets/photo.png
# Fast BC7: the encoder's quality is tested elsewhere; this case is about a real file's path
# through import and inspect, and must stay quick under the sanitizers.
printf '{"import": {"texture": {"quality": "fast"}}}\n' >assets/photo.png.meta
k 0 inspect --json assets/photo.png
expect_eq "$(j "(d['format'], d['width'], d['height'], d['channels'], d['bits'])")" '["png", 768, 512, 3, 8]' "source"
k 0 import assets/photo.png
show
k 0 import --json assets/photo.png
expect_eq "$(j "(d['records'][0]['summary']['levels'], d['records'][0]['summary']['has_alpha'])")" '[10, false]' "summary"
ktx=$(j "d['records'][0]['entry'] + '/texture.ktx2'")
k 0 inspect --json "$ktx"
expect_eq "$(j "(len(d['levels']), d['levels'][0]['size'], d['levels'][-1]['width'])")" '[10, 393216, 1]' "KTX2"
