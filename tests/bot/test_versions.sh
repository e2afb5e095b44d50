#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Which series is which one's earlier version, end to end (run --once on
# an mbox, then query --versions), and that the same mails make the same
# series in any order:
#  - a stranger's series copying the victim's b4 change-id and linking
#    the victim's v1 is no version of it (the victim's v1 showed the
#    attacker's "v2 (fixed)");
#  - the victim's own v2 whose subject changed, without change-id or
#    link, is found by its author and files; one whose cover letter says
#    "Changes since v1" and links v1 on lore by its link;
#  - a v1 and v2 whose Message-IDs the sender's mail provider rewrote
#    (the parts reply to ids no mail carries) with v1 and v2 tags mixed:
#    the same series read in the archive's order and in another.
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
rb=${REVIEWBOT:-$repo/reviewbot}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp LC_ALL=C
unset REVIEWBOT_CONFIG

ok() { pass=$((pass + 1)); echo "ok - $1"; }
bad() { fail=$((fail + 1)); echo "not ok - $1"; }
check() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }

user_line=
[ "$(id -u)" = 0 ] && user_line="	user = nobody" && chmod 755 "$tmp"
conf() {  # conf NAME MBOX
	mkdir -p "$tmp/$1"
	[ "$(id -u)" = 0 ] && chown nobody "$tmp/$1"
	cat >"$tmp/$1.conf" <<CONF
[bot]
	address = reviewbot@example.org
	database = $tmp/$1/rb.db
	templates = $repo/templates
	dry_run = true
$user_line
[source "list"]
	type = mbox
	path = $2
	list = linux-hwmon@vger.kernel.org
[delivery]
	type = maildir
	path = $tmp/$1/out
[policy]
	max_age = 0	# the mail carries fixed dates (2026)
	series_wait = 600
CONF
}

# mail NAME FROM SUBJECT MSGID [REFS] [BODY]: one message, mbox-ready
/usr/bin/python3 - "$tmp" <<'PY'
import os, sys
tmp = sys.argv[1]
n = [0]
def mail(frm, subject, msgid, refs=None, body="", day=1):
    n[0] += 1
    # the list's copies: they carry its List-Id (RFC 2919)
    h = ["From: %s" % frm, "To: linux-hwmon@vger.kernel.org",
         "List-Id: <linux-hwmon.vger.kernel.org>",
         "Subject: %s" % subject, "Date: %s, %d Dec 2026 10:%02d:00 +0000" %
         (["Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Mon"][(day - 1) % 7], day, n[0]),
         "Message-ID: <%s>" % msgid]
    if refs:
        h.append("In-Reply-To: <%s>" % refs.split()[-1])
        h.append("References: %s" % " ".join("<%s>" % r for r in refs.split()))
    return "From mboxrd@z Thu Jan  1 00:00:00 1970\n" + "\n".join(h) + "\n\n" + body + "\n"
def patch(name, files):
    out = "Add %s.\n\nSigned-off-by: %s\n---\n" % (name, "X <x@example.org>")
    for f in files:
        out += ("diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n"
                "@@ -0,0 +1 @@\n+/* %s */\n" % (f, f, f, name))
    return out
acme = ["drivers/hwmon/acme.c", "Documentation/hwmon/acme.rst"]
vic = "Vic Tim <vic@example.org>"
mal = "Mal Ory <mal@evil.example>"
b4 = "\n---\nbase-commit: 0123456789abcdef\nchange-id: 20261201-acme-0c0ffee0\n\nBest regards,\n"
ms = []
ms.append(mail(vic, "[PATCH 0/2] hwmon: (acme) add the ACME-1 sensor", "v1c@example.org", None,
               "Add a driver." + b4))
ms.append(mail(vic, "[PATCH 1/2] hwmon: (acme) add a driver", "v1p1@example.org", "v1c@example.org",
               patch("acme", acme[:1])))
ms.append(mail(vic, "[PATCH 2/2] hwmon: (acme) document it", "v1p2@example.org", "v1c@example.org",
               patch("acme doc", acme[1:])))
# another series of the victim's, on other files
ms.append(mail(vic, "[PATCH] hwmon: (other) fix a typo", "o1@example.org", None,
               patch("other", ["drivers/hwmon/other.c"])))
# the stranger: the victim's change-id and a link to the victim's v1
ms.append(mail(mal, "[PATCH v2 0/2] hwmon: (acme) add the ACME-1 sensor (fixed)", "m2c@evil.example", None,
               "Fixed.\n\n- Link to v1: https://lore.kernel.org/r/v1c@example.org\n" + b4))
ms.append(mail(mal, "[PATCH v2 1/2] hwmon: (acme) add a driver", "m2p1@evil.example", "m2c@evil.example",
               patch("acme evil", acme[:1])))
ms.append(mail(mal, "[PATCH v2 2/2] hwmon: (acme) document it", "m2p2@evil.example", "m2c@evil.example",
               patch("acme evil doc", acme[1:])))
# the victim's v2: a new subject, no change-id, no link: the same files
ms.append(mail(vic, "[PATCH v2 0/2] hwmon: new driver for ACME-1 chips", "v2c@example.org", None,
               "Renamed.\n"))
ms.append(mail(vic, "[PATCH v2 1/2] hwmon: acme: new driver", "v2p1@example.org", "v2c@example.org",
               patch("acme v2", acme[:1])))
ms.append(mail(vic, "[PATCH v2 2/2] hwmon: acme: documentation", "v2p2@example.org", "v2c@example.org",
               patch("acme v2 doc", acme[1:])))
# the victim's v3: "Changes since v2" and a lore link, another subject
ms.append(mail(vic, "[PATCH v3] hwmon: acme: all in one", "v3@example.org", None,
               patch("acme v3", acme).replace("---\n", "---\nChanges since v2:\n- one patch\n"
                     "- v2: https://lore.kernel.org/linux-hwmon/v2c@example.org/\n\n", 1)))
open(os.path.join(tmp, "versions.mbox"), "w").write("".join(ms))

# rewritten Message-IDs: the parts reply to the ids git send-email gave,
# which no mail carries; one v2 part lacks its "v2"
rw = []
rw.append(mail(vic, "[PATCH 0/3] hwmon: (foo) add bar", "R1c@mail.example", None, "v1.\n"))
for i, t in enumerate(["one", "two", "three"], 1):
    rw.append(mail(vic, "[PATCH %d/3] hwmon: (foo) %s" % (i, t), "R1p%d@mail.example" % i,
                   "c1-orig@host", patch("foo %s" % t, ["drivers/hwmon/foo%d.c" % i])))
rw.append(mail(vic, "[PATCH v2 0/3] hwmon: (foo) add bar", "R2c@mail.example", None, "v2.\n",
               day=8))
for i, t in enumerate(["one", "two", "three"], 1):
    tag = "PATCH 2/3" if i == 2 else "PATCH v2 %d/3" % i
    rw.append(mail(vic, "[%s] hwmon: (foo) %s" % (tag, t), "R2p%d@mail.example" % i,
                   "c2-orig@host", patch("foo %s v2" % t, ["drivers/hwmon/foo%d.c" % i]), day=8))
open(os.path.join(tmp, "rw-archive.mbox"), "w").write("".join(rw))
# as the feed has them (by Received: time): the untagged v2 part first,
# the covers last
order = [1, 3, 2, 6, 5, 7, 0, 4]
open(os.path.join(tmp, "rw-feed.mbox"), "w").write("".join(rw[i] for i in order))
PY
chmod 644 "$tmp"/*.mbox

conf v "$tmp/versions.mbox"
"$rb" run --once --config "$tmp/v.conf" >"$tmp/v/out.txt" 2>&1; st=$?
check "run --once on the versions archive" "[ $st -eq 0 ] || { cat '$tmp/v/out.txt'; false; }"
versions() {  # versions MSGID: the Message-IDs of its versions, in order
	"$rb" query --config "$tmp/v.conf" --versions "$1" --csv 2>&1 |
		awk -F, 'NR > 1 { print $7 }' | tr '\n' ' '
}
check "the victim's v1 lists its own versions only (v1, the renamed v2, v3), not the stranger's" \
	"[ \"\$(versions v1c@example.org)\" = 'v1c@example.org v2c@example.org v3@example.org ' ] ||
	 { versions v1c@example.org; echo; false; }"
check "the stranger's \"v2 (fixed)\" is a v2 of nothing" \
	"[ \"\$(versions m2c@evil.example)\" = 'm2c@evil.example ' ] || { versions m2c@evil.example; echo; false; }"
check "the stranger's review says nothing \"since v1\"" \
	"! grep -l 'In-Reply-To: <m2c@evil.example>' '$tmp/v/out/new/'* | xargs grep -qi 'since v1'"
check "the renamed v2's review compares with v1" \
	"grep -l 'In-Reply-To: <v2c@example.org>' '$tmp/v/out/new/'* | xargs grep -qi 'v1'"

series_of() {  # series_of NAME: each message and the series it is in
	sqlite3 "$tmp/$1/rb.db" "SELECT m.message_id || '=' || s.version || ':' ||
		(SELECT min(x.message_id) FROM messages x WHERE x.series_id = s.id)
		FROM messages m JOIN series s ON s.id = m.series_id ORDER BY m.message_id" |
		tr '\n' ' '
}
conf a "$tmp/rw-archive.mbox"
conf f "$tmp/rw-feed.mbox"
"$rb" run --once --config "$tmp/a.conf" >"$tmp/a/out.txt" 2>&1
"$rb" run --once --config "$tmp/f.conf" >"$tmp/f/out.txt" 2>&1
check "rewritten Message-IDs, mixed tags: the same series in the archive's order and the feed's" \
	"[ \"\$(series_of a)\" = \"\$(series_of f)\" ] || { echo \"archive: \$(series_of a)\"; echo \"feed:    \$(series_of f)\"; false; }"
check "... one v1 and one v2 of three parts, each with its cover letter" \
	"[ \"\$(series_of a)\" = 'R1c@mail.example=1:R1c@mail.example R1p1@mail.example=1:R1c@mail.example R1p2@mail.example=1:R1c@mail.example R1p3@mail.example=1:R1c@mail.example R2c@mail.example=2:R2c@mail.example R2p1@mail.example=2:R2c@mail.example R2p2@mail.example=2:R2c@mail.example R2p3@mail.example=2:R2c@mail.example ' ] || { series_of a; echo; false; }"
check "... the same two reviews" \
	"[ \$(ls '$tmp/a/out/new' | wc -l) -eq 2 ] && [ \$(ls '$tmp/f/out/new' | wc -l) -eq 2 ]"

echo "versions: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
