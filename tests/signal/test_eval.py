#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""make eval-signal-selftest: eval.py's matching and arithmetic on made-up
findings, labels, a diff and a review mail (no reviewbot, no corpus)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import eval as ev  # noqa: E402
import security_corpus as sc  # noqa: E402


def label(patch, file, line, category, kind, side="new"):
    lo, hi = ev.parse_range(line)
    return {"patch": patch, "file": file, "line": line, "side": side,
            "category": category, "kind": kind, "reason": "", "lo": lo,
            "hi": hi}


def finding(patch, file, line, category, typ, side="new"):
    return {"patch": patch, "file": file, "line": line, "side": side,
            "category": category, "type": typ, "json_line": line}


DIFF = """\
Subject: [PATCH] demo
---
--- a/drivers/x.c
+++ b/drivers/x.c
@@ -10,3 +10,4 @@ static int f(void)
 	a();
-	b();
+	c();
+	d();
 	e();
--- /dev/null
+++ b/include/uapi/linux/y.h
@@ -0,0 +1,2 @@
+#define Y 1
+#define Z 2
--- a/drivers/gone.c
+++ /dev/null
@@ -1,1 +0,0 @@
-int gone;
"""

MAIL = """\
From: reviewbot <reviewbot@localhost>
Subject: Re: [PATCH] demo

Merge readiness
  security:              concern (1 finding below)
  user-space interface:  concern (2 findings below)
  affects others:        ok

Security
  [PATCH 1/2] drivers/x.c:11: WARNING: sprintf() does not know the
    size of its buffer (UNBOUNDED_STRING_COPY)
    +	sprintf(buf, "%s", s);

User-space interface (new ABI: needs a review of its own)
  #2 include/uapi/linux/y.h:1: WARNING: change to user-space API header
    include/uapi/linux/y.h (UAPI_HEADER)
    +#define Y 1
  #13 drivers/x.c:40: WARNING: new sysfs attribute 'q' (DEVICE_ATTR_RO):
    ABI (UAPI_SYSFS)
  #14 drivers/x.c lines 50-51, 60: WARNING: new ioctl command number
    (UAPI_IOCTL, 3 lines)

Style nits: 1 (counted by type, not listed one by one)
  LONG_LINE  1  at drivers/x.c:12

-- 
reviewbot 0.1.0.
"""


class PatchPlaces(unittest.TestCase):
    def test_sides_and_lines(self):
        places = ev.patch_places(DIFF)
        lines = DIFF.split("\n")
        where = {lines[n - 1]: p for n, p in places.items()}
        self.assertEqual(where[" \ta();"], ("drivers/x.c", "new", 10))
        self.assertEqual(where["-\tb();"], ("drivers/x.c", "old", 11))
        self.assertEqual(where["+\tc();"], ("drivers/x.c", "new", 11))
        self.assertEqual(where["+\td();"], ("drivers/x.c", "new", 12))
        self.assertEqual(where[" \te();"], ("drivers/x.c", "new", 13))
        self.assertEqual(where["+#define Z 2"],
                         ("include/uapi/linux/y.h", "new", 2))
        self.assertEqual(where["-int gone;"], ("drivers/gone.c", "old", 1))
        # the headers are not lines of any file
        self.assertNotIn(4, places)

    def test_locate(self):
        places = ev.patch_places(DIFF)
        old = {"type": "X", "file": "drivers/x.c", "line": 11, "patch_line": 7}
        self.assertEqual(ev.locate(old, places), ("drivers/x.c", "old", 11))
        hdr = {"type": "UAPI_HEADER", "file": "include/uapi/linux/y.h",
               "line": 1, "patch_line": 14}
        self.assertEqual(ev.locate(hdr, places),
                         ("include/uapi/linux/y.h", "new", None))
        # a patch_line that does not agree with the file: trust the finding
        odd = {"type": "X", "file": "other.c", "line": 5, "patch_line": 7}
        self.assertEqual(ev.locate(odd, places), ("other.c", "new", 5))


class Scoring(unittest.TestCase):
    def setUp(self):
        self.labels = [
            label("p1", "f.c", "10", "uapi", "sysfs-new"),        # A
            label("p1", "f.c", "12", "uapi", "bin-attr"),         # B
            label("p1", "g.h", "1-5", "uapi", "uapi-header"),     # C
            label("p2", "h.c", "20", "uapi", "sysfs-removed", "old"),  # D
            label("p1", "f.c", "30-31", "security", "overflow"),  # E
        ]
        self.findings = [
            finding("p1", "f.c", 11, "uapi", "UAPI_SYSFS"),       # A (tie: first)
            finding("p1", "f.c", 40, "security", "UNBOUNDED_STRING_COPY"),
            finding("p1", "g.h", None, "uapi", "UAPI_HEADER"),    # C
            finding("p2", "h.c", 21, "uapi", "UAPI_SYSFS", "old"),  # D
            finding("p2", "h.c", 21, "uapi", "UAPI_SYSFS"),       # wrong side
            finding("p1", "f.c", 33, "security", "UNBOUNDED_STRING_COPY"),  # E
            finding("p1", "f.c", 30, "uapi", "UAPI_IOCTL"),       # wrong category
            finding("p3", "f.c", 10, "uapi", "UAPI_SYSFS"),       # wrong patch
        ]

    def test_truth(self):
        found, caught = ev.score(self.findings, self.labels)
        self.assertEqual([f["true"] for f in found],
                         [True, False, True, True, False, True, False, False])
        kinds = sorted(l["kind"] for l in self.labels if id(l) in caught)
        # UAPI_SYSFS is one finding for every attribute of its file: it
        # catches B as well as A
        self.assertEqual(kinds, ["bin-attr", "overflow", "sysfs-new", "sysfs-removed",
                                 "uapi-header"])

    def test_arithmetic(self):
        found, caught = ev.score(self.findings, self.labels)
        per_type, per_cat, per_kind = ev.summarize(found, self.labels, caught)
        self.assertEqual(per_type[("uapi", "UAPI_SYSFS")], [4, 2])
        self.assertEqual(per_type[("uapi", "UAPI_IOCTL")], [1, 0])
        self.assertEqual(per_type[("uapi", "UAPI_HEADER")], [1, 1])
        self.assertEqual(per_type[("security", "UNBOUNDED_STRING_COPY")], [2, 1])
        self.assertAlmostEqual(per_cat["uapi"]["precision"], 3 / 6)
        self.assertAlmostEqual(per_cat["uapi"]["recall"], 4 / 4)
        self.assertAlmostEqual(per_cat["security"]["precision"], 1 / 2)
        self.assertAlmostEqual(per_cat["security"]["recall"], 1.0)
        self.assertEqual(per_kind[("uapi", "bin-attr")], [1, 1])
        self.assertEqual(per_kind[("uapi", "sysfs-removed")], [1, 1])

    def test_group_finding_needs_its_file_and_kinds(self):
        # a UAPI_SYSFS far from its file's attribute labels still catches
        # them; one in another file, or a non-group type there, does not
        far = finding("p1", "f.c", 400, "uapi", "UAPI_SYSFS")
        self.assertEqual(sorted(l["kind"] for l in ev.match(far, self.labels)),
                         ["bin-attr", "sysfs-new"])
        self.assertEqual(ev.match(finding("p1", "z.c", 10, "uapi", "UAPI_SYSFS"),
                                  self.labels), [])
        self.assertEqual(ev.match(finding("p1", "f.c", 400, "uapi", "UAPI_IOCTL"),
                                  self.labels), [])

    def test_nearest_label_wins(self):
        f = finding("p1", "f.c", 12, "uapi", "UAPI_SYSFS")
        self.assertEqual([l["kind"] for l in ev.match(f, self.labels)],
                         ["bin-attr", "sysfs-new"])

    def test_floors(self):
        found, caught = ev.score(self.findings, self.labels)
        _, per_cat, _ = ev.summarize(found, self.labels, caught)
        self.assertEqual(ev.check_floors(per_cat, 0.5, 0.5, 0.75), [])
        failed = ev.check_floors(per_cat, 0.6, 0.6, None)
        self.assertEqual(len(failed), 2)
        self.assertTrue(failed[0].startswith("security precision 0.50"))
        self.assertTrue(failed[1].startswith("uapi precision 0.50"))
        # no finding at all: no precision, not a failure; no recall is
        empty = {"security": {"precision": None, "recall": None},
                 "uapi": {"precision": None, "recall": 0.0}}
        self.assertEqual(ev.check_floors(empty, 0.9, 0.9), [])
        self.assertEqual(len(ev.check_floors(empty, None, None, 0.1)), 1)


class Review(unittest.TestCase):
    def test_parse(self):
        r = ev.parse_review(MAIL)
        self.assertEqual(r["state"], {"security": "concern", "uapi": "concern"})
        got = [(f["section"], f["file"], f["line"], f["type"])
               for f in r["findings"]]
        self.assertEqual(got, [
            ("security", "drivers/x.c", 11, "UNBOUNDED_STRING_COPY"),
            ("uapi", "include/uapi/linux/y.h", 1, "UAPI_HEADER"),
            ("uapi", "drivers/x.c", 40, "UAPI_SYSFS"),
            ("uapi", "drivers/x.c", 50, "UAPI_IOCTL"),
            ("uapi", "drivers/x.c", 51, "UAPI_IOCTL"),
            ("uapi", "drivers/x.c", 60, "UAPI_IOCTL")])
        self.assertIsNone(ev.parse_review(
            "reviewbot review: no patch to review in the input\n"))

    def test_scores(self):
        labels = [label("a", "drivers/x.c", "11", "security", "overflow"),
                  label("b", "include/uapi/linux/y.h", "2", "uapi",
                        "uapi-header")]
        mail_b = MAIL
        mail_c = MAIL.replace("security:              concern",
                              "security:              ok")
        reviews = {"a": ev.parse_review(MAIL), "b": ev.parse_review(mail_b),
                   "c": ev.parse_review(mail_c), "d": None}
        rs = ev.review_scores(reviews, [], labels)
        self.assertEqual(rs["reviewed"], 3)
        self.assertEqual(rs["no_patch"], ["d"])
        self.assertEqual(rs["clean"], 2)                 # b and c
        self.assertEqual(rs["clean_concern"], ["b"])
        self.assertEqual((rs["sec"], rs["sec_concern"]), (1, 1))
        # Security: a's x.c:11 is true, b's and c's are not
        self.assertEqual(rs["section"]["security"], [3, 1])
        # uapi: b's header is true (file level); nothing else matches
        self.assertEqual(rs["section"]["uapi"], [15, 1])


class SecurityCorpusTest(unittest.TestCase):
    """security_corpus.py: kinds read off a label's why, matching with its
    must=0 lines, the checklist's "ok" claims."""

    def test_kind_of_reads_the_why(self):
        self.assertEqual(sc.kind_of("security", "fix adds bounds check: oob-read; x"), "oob")
        self.assertEqual(sc.kind_of("security", "uaf: freed before the copy"), "use-after-free")
        self.assertEqual(sc.kind_of("security", "info-leak: stack padding"), "info-leak")
        self.assertEqual(sc.kind_of("security", "missing-capability: bind()"), "permission")
        self.assertEqual(sc.kind_of("security", "int-overflow: size wrapped"), "int-overflow")
        self.assertEqual(sc.kind_of("uapi", "new sysfs attribute reset"), "sysfs")
        self.assertEqual(sc.kind_of("uapi", "removed module parameter x"), "removed-renamed")
        self.assertEqual(sc.kind_of("uapi", "new uapi key code KEY_X"), "uapi-header")

    def test_a_finding_on_a_must0_line_is_true_and_catches_nothing_required(self):
        labels = [{"patch": "p", "category": "security", "file": "a.c", "line": 10,
                   "must": False, "kind": "dos"},
                  {"patch": "p", "category": "security", "file": "a.c", "line": 30,
                   "must": True, "kind": "oob"}]
        fs = [{"patch": "p", "category": "security", "file": "a.c", "line": 11,
               "group": False},
              {"patch": "p", "category": "security", "file": "a.c", "line": 20,
               "group": False}]
        caught = sc.score(fs, labels)
        self.assertTrue(fs[0]["true"])
        self.assertFalse(fs[1]["true"])
        self.assertEqual(caught, {id(labels[0])})

    def test_checklist_ok_only_for_a_stage_that_ran(self):
        mail = ("Merge readiness\n"
                "  security:              no finding in the patch text (not built)\n"
                "  compiles:              ok (applied to net at abc123)\n"
                "  seems to work:         ok\n"
                "  maintainer:            ok\n"
                "\nSecurity\n")
        cl = sc.checklist(mail)
        self.assertEqual(cl["compiles"], "ok (applied to net at abc123)")
        self.assertEqual(sorted(sc.unearned_ok(cl)),
                         ["maintainer: ok", "seems to work: ok"])


if __name__ == "__main__":
    result = unittest.main(exit=False).result
    failed = len(result.failures) + len(result.errors)
    # the tally line tests/run-suites.sh counts
    print("eval-signal-selftest: %d passed, %d failed" % (result.testsRun - failed, failed))
    sys.exit(1 if failed else 0)
