# The cache of the misspelling list (bot/spell_cache.c), sourced by
# test_cli.sh: it uses $rb, $tmp, check, ok and bad from there.

sc=$tmp/spell-cache
mkdir -p "$sc"
dict=$sc/dictionary.txt
sysdict=/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt
if [ -r "$sysdict" ]; then
	cp "$sysdict" "$dict"
else
	printf 'occured->occurred\nrecieve->receive\n' >"$dict"
fi
cat >"$sc/typo.patch" <<'EOF'
From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 00:00:00 2001
From: Jane Doe <jane@example.com>
Date: Mon, 1 Jan 2024 00:00:00 +0000
Subject: [PATCH] leds: acme: recieve the status after an error occured

When an error occured the driver did not recieve the status.

Signed-off-by: Jane Doe <jane@example.com>
---
 drivers/leds/leds-acme.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/drivers/leds/leds-acme.c b/drivers/leds/leds-acme.c
index 1111111..2222222 100644
--- a/drivers/leds/leds-acme.c
+++ b/drivers/leds/leds-acme.c
@@ -10,7 +10,7 @@ static int acme_set(struct led_classdev *cdev, int v)
 {
 	struct acme *a = to_acme(cdev);
 
-	return regmap_write(a->map, 0x10, v);
+	return regmap_write(a->map, ACME_REG, v); /* recieve it */
 }
 
 static int acme_probe(struct platform_device *pdev)
-- 
2.43.0
EOF

# rcheck DIR OUT [OPTION]...: check the patch with the cache in DIR
rcheck() {
	local dir=$1 out=$2
	shift 2
	REVIEWBOT_CACHE_DIR=$dir "$rb" check --show-types --codespellfile "$dict" "$@" \
		"$sc/typo.patch" >"$out" 2>&1
}
imgs() { find "$1" -maxdepth 1 -name 'spelling-*.img' 2>/dev/null | wc -l; }
img_of() { find "$1" -maxdepth 1 -name 'spelling-*.img' | head -n 1; }

c=$sc/cache
rcheck "$c" "$sc/cold"; st=$?
check "spell cache: the first run finds the typos" \
	"[ $st -eq 1 ] && grep -q \"'recieve' may be misspelled - perhaps 'receive'\" '$sc/cold' &&
	 grep -q \"'occured' may be misspelled - perhaps 'occurred'\" '$sc/cold'"
check "spell cache: the first run writes one image, 0600 in a 0700 folder" \
	"[ \$(imgs '$c') -eq 1 ] && [ \$(stat -c %a '$c') = 700 ] &&
	 [ \$(stat -c %a \"\$(img_of '$c')\") = 600 ] && ! ls -A '$c' | grep -q '^\\.spelling-'"
img=$(img_of "$c")
"$rb" check --show-types --codespellfile "$dict" --no-cache "$sc/typo.patch" >"$sc/plain" 2>&1
check "spell cache: the output is the one without the cache" "cmp -s '$sc/cold' '$sc/plain'"
sum=$(md5sum <"$img")
ino=$(stat -c %i "$img")
rcheck "$c" "$sc/warm"; st=$?
check "spell cache: the second run reads the image and prints the same" \
	"[ $st -eq 1 ] && cmp -s '$sc/cold' '$sc/warm' && [ \$(stat -c %i '$img') = $ino ] &&
	 [ \$(imgs '$c') -eq 1 ]"

# a damaged image is ignored and replaced
head -c 100 "$img" >"$sc/short" && cat "$sc/short" >"$img"
rcheck "$c" "$sc/out"
check "spell cache: a truncated image is ignored and replaced" \
	"cmp -s '$sc/cold' '$sc/out' && [ \"\$(md5sum <'$img')\" = '$sum' ]"
head -c 4096 /dev/urandom >"$img"
rcheck "$c" "$sc/out"
check "spell cache: a garbage image is ignored and replaced" \
	"cmp -s '$sc/cold' '$sc/out' && [ \"\$(md5sum <'$img')\" = '$sum' ]"
python3 -c "
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
b[len(b) // 2] ^= 0xff
b[60] ^= 0x40
open(sys.argv[1], 'wb').write(b)" "$img"
rcheck "$c" "$sc/out"; st=$?
check "spell cache: an image with flipped bytes does no harm" \
	"[ $st -eq 1 ] && grep -q 'perhaps' '$sc/out'"
cp "$sc/short" "$img" && chmod 0666 "$img"
rcheck "$c" "$sc/out"
check "spell cache: an image others may write is not read, and replaced" \
	"cmp -s '$sc/cold' '$sc/out' && [ \$(stat -c %a '$img') = 600 ] &&
	 [ \"\$(md5sum <'$img')\" = '$sum' ]"
rm -f "$img" && cp "$sc/short" "$sc/target" && ln -s "$sc/target" "$img"
rcheck "$c" "$sc/out"
check "spell cache: a symlink is not followed" \
	"cmp -s '$sc/cold' '$sc/out' && [ ! -L '$img' ] && cmp -s '$sc/short' '$sc/target'"

# a changed dictionary is a new image
touch -d '2001-02-03 04:05:06.789' "$dict"
rcheck "$c" "$sc/out"
check "spell cache: touching the dictionary makes a new image" \
	"cmp -s '$sc/cold' '$sc/out' && [ \$(imgs '$c') -eq 2 ]"
sed -i 's/^recieve->.*/recieve->receive-changed/' "$dict"
rcheck "$c" "$sc/out"
check "spell cache: a new dictionary is read" \
	"grep -q \"perhaps 'receive-changed'\" '$sc/out' && [ \$(imgs '$c') -eq 3 ]"
# the key is the file's identity: the same inode, size and mtime with other
# text is not noticed (which shows the image, not the file, was read)
touch -r "$dict" "$sc/stamp"
python3 -c "
import sys
t = open(sys.argv[1]).read().replace('recieve->receive-changed', 'recieve->receive-CHANGED')
f = open(sys.argv[1], 'r+'); f.write(t); f.close()" "$dict"
touch -r "$sc/stamp" "$dict"
rcheck "$c" "$sc/out"
check "spell cache: an unchanged file identity is served from the image" \
	"grep -q \"perhaps 'receive-changed'\" '$sc/out' && [ \$(imgs '$c') -eq 3 ]"
rcheck "$c" "$sc/out" --no-cache
check "spell cache: --no-cache reads the file" "grep -q \"perhaps 'receive-CHANGED'\" '$sc/out'"

# --no-cache writes nothing; the default folders; an unusable folder
rcheck "$sc/none" "$sc/out" --no-cache
check "spell cache: --no-cache writes nothing" "[ ! -e '$sc/none' ]"
mkdir -p "$sc/home"
(unset REVIEWBOT_CACHE_DIR XDG_CACHE_HOME; HOME=$sc/home "$rb" check --codespellfile "$dict" \
	"$sc/typo.patch" >/dev/null 2>&1)
check "spell cache: the default folder is ~/.cache/reviewbot" \
	"[ \$(imgs '$sc/home/.cache/reviewbot') -eq 1 ]"
(unset REVIEWBOT_CACHE_DIR; XDG_CACHE_HOME=$sc/xdg "$rb" check --codespellfile "$dict" \
	"$sc/typo.patch" >/dev/null 2>&1)
check "spell cache: \$XDG_CACHE_HOME/reviewbot comes first" "[ \$(imgs '$sc/xdg/reviewbot') -eq 1 ]"
touch "$sc/file"
rcheck "$sc/file/sub" "$sc/out"; st=$?
check "spell cache: without a usable folder the check still runs" \
	"[ $st -eq 1 ] && grep -q \"perhaps 'receive-CHANGED'\" '$sc/out'"
