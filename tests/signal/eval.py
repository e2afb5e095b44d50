#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""make eval-signal: how much of what the security and uapi rules say is true.

Runs `reviewbot check --no-tree --json --category security,uapi` and
`reviewbot review` on every patch of tests/signal/universe.txt and scores
what they say against the hand-made labels of tests/signal/labels.tsv:

  * per finding type: findings, true ones, precision;
  * per category: precision, and recall over the labelled concerns;
  * per label kind: recall (what the rules miss);
  * the review mails: how many patches with no true security concern are
    told "security: concern" (the goal is at most 1 in 5), and the
    precision of what the Security and User-space interface sections list.

Matching.  A finding's place is worked out from its patch_line (the line of
the patch file), so a finding on a removed line is compared with labels on
the old side.  It matches a label of the same patch, category and file whose
line (or N-M range) is within +-2 of it, on the same side; a file-level
finding (UAPI_HEADER, or no line) matches every label of its category in that
file.  A finding that matches a label is true, any other finding on a
universe patch is false.  For recall a line finding counts for its nearest
matching label only (two labels two lines apart are not both caught by one
finding); a file-level finding catches every label it matches.

It is a measurement, not a test: it exits 0 whatever the figures, unless
floors are given (--min-precision-security, --min-precision-uapi,
--min-recall-uapi) and one is not met (exit 1).  Exit 2: it could not run.
Standard library only.
"""

import argparse
import json
import os
import re
import subprocess
import sys
from collections import OrderedDict, defaultdict
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CATEGORIES = ("security", "uapi")
# types whose finding stands for a whole file, not a line
FILE_LEVEL_TYPES = {"UAPI_HEADER"}
# One finding that lists every new attribute of its file (issue 20 item
# 3): it catches the labels of these kinds in its file, wherever they are.
GROUP_TYPES = {"UAPI_SYSFS": ("sysfs-new", "bin-attr")}
SLACK = 2


# ----------------------------------------------------------------- inputs

def read_list(path):
    """Non-empty, non-comment lines of a file."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out


def parse_range(text):
    """'12' -> (12, 12), '12-15' -> (12, 15)."""
    m = re.fullmatch(r"(\d+)(?:-(\d+))?", text.strip())
    if not m:
        raise ValueError("bad line %r" % text)
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    if hi < lo:
        raise ValueError("bad range %r" % text)
    return lo, hi


def read_tsv(path, columns):
    """Rows of a tab-separated file with a header row naming `columns`
    first; '#' lines are comments."""
    rows = []
    header = None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.split("\t")
            if header is None:
                header = cells
                if header[:len(columns)] != list(columns):
                    raise ValueError("%s: header must start with %s"
                                     % (path, "\t".join(columns)))
                continue
            if len(cells) != len(header):
                raise ValueError("%s:%d: %d columns, want %d"
                                 % (path, n, len(cells), len(header)))
            row = dict(zip(header, cells))
            row["_where"] = "%s:%d" % (os.path.basename(path), n)
            rows.append(row)
    return rows


LABEL_COLUMNS = ("patch", "file", "line", "side", "category", "kind", "reason")


def load_labels(path):
    labels = []
    for row in read_tsv(path, LABEL_COLUMNS):
        if row["category"] not in CATEGORIES:
            raise ValueError("%s: category %r" % (row["_where"], row["category"]))
        if row["side"] not in ("new", "old"):
            raise ValueError("%s: side %r" % (row["_where"], row["side"]))
        row["lo"], row["hi"] = parse_range(row["line"])
        labels.append(row)
    return labels


# ------------------------------------------------------- patch line places

HUNK_RE = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def strip_prefix(path):
    path = path.split("\t")[0].strip()
    if path.startswith(("a/", "b/")):
        return path[2:]
    return path


def patch_places(text):
    """{patch line number: (file, side, line)} for the added ("new") and
    removed ("old") lines of every hunk, and context lines ("new")."""
    places = {}
    old_file = new_file = None
    o = n = ro = rn = 0
    for num, line in enumerate(text.split("\n"), 1):
        if ro <= 0 and rn <= 0:
            if line.startswith("--- "):
                old_file = strip_prefix(line[4:])
            elif line.startswith("+++ "):
                new_file = strip_prefix(line[4:])
            else:
                m = HUNK_RE.match(line)
                if m:
                    o, ro = int(m.group(1)), int(m.group(2) or 1)
                    n, rn = int(m.group(3)), int(m.group(4) or 1)
            continue
        name = new_file if new_file and new_file != "/dev/null" else old_file
        if line.startswith("+"):
            places[num] = (name, "new", n)
            n += 1
            rn -= 1
        elif line.startswith("-"):
            places[num] = (old_file if old_file != "/dev/null" else name,
                           "old", o)
            o += 1
            ro -= 1
        elif line.startswith("\\"):
            continue
        else:
            places[num] = (name, "new", n)
            o += 1
            n += 1
            ro -= 1
            rn -= 1
    return places


def locate(finding, places):
    """(file, side, line) of a finding; line None for a file-level one."""
    if finding.get("type") in FILE_LEVEL_TYPES or not finding.get("line"):
        return finding.get("file"), "new", None
    place = places.get(finding.get("patch_line"))
    if place and place[0] == finding.get("file"):
        return place
    return finding.get("file"), "new", finding.get("line")


# ---------------------------------------------------------------- matching

def distance(label, line):
    if line < label["lo"]:
        return label["lo"] - line
    if line > label["hi"]:
        return line - label["hi"]
    return 0


def match(finding, labels):
    """Labels a located finding matches, nearest first.  `finding` has
    patch, category, file, side, line (None: file-level)."""
    hits = []
    for lab in labels:
        if (lab["patch"] != finding["patch"]
                or lab["category"] != finding["category"]
                or lab["file"] != finding["file"]):
            continue
        if finding["line"] is None:
            hits.append((0, lab))
        elif lab["kind"] in GROUP_TYPES.get(finding.get("type"), ()):
            hits.append((distance(lab, finding["line"]), lab))
        elif lab["side"] == finding["side"]:
            d = distance(lab, finding["line"])
            if d <= SLACK:
                hits.append((d, lab))
    hits.sort(key=lambda h: h[0])
    return [lab for _, lab in hits]


def score(findings, labels):
    """Marks each finding true/false and each label caught or not.
    Returns (findings, caught label ids)."""
    caught = set()
    for f in findings:
        hits = match(f, labels)
        f["true"] = bool(hits)
        f["labels"] = hits
        if not hits:
            continue
        if f["line"] is None or f.get("type") in GROUP_TYPES:
            caught.update(id(lab) for lab in hits)
        else:
            caught.add(id(hits[0]))
    return findings, caught


def ratio(num, den):
    return None if den == 0 else num / den


def fmt(r):
    return "  -  " if r is None else "%5.2f" % r


def summarize(findings, labels, caught):
    """Per type, per category and per kind figures (plain dicts)."""
    per_type = OrderedDict()
    for f in sorted(findings, key=lambda f: (f["category"], f["type"])):
        t = per_type.setdefault((f["category"], f["type"]), [0, 0])
        t[0] += 1
        t[1] += f["true"]
    per_cat = OrderedDict()
    for cat in CATEGORIES:
        fs = [f for f in findings if f["category"] == cat]
        ls = [lab for lab in labels if lab["category"] == cat]
        ntrue = sum(f["true"] for f in fs)
        ncaught = sum(id(lab) in caught for lab in ls)
        per_cat[cat] = {
            "findings": len(fs), "true": ntrue,
            "precision": ratio(ntrue, len(fs)),
            "labels": len(ls), "caught": ncaught,
            "recall": ratio(ncaught, len(ls)),
        }
    per_kind = OrderedDict()
    for lab in sorted(labels, key=lambda l: (l["category"], l["kind"])):
        k = per_kind.setdefault((lab["category"], lab["kind"]), [0, 0])
        k[0] += 1
        k[1] += id(lab) in caught
    return per_type, per_cat, per_kind


def check_floors(per_cat, min_prec_security=None, min_prec_uapi=None,
                 min_recall_uapi=None):
    """What is below its floor, as strings (empty: all met).  A category
    without findings has no precision, which is not below a floor."""
    failed = []
    floors = (("security precision", min_prec_security,
               per_cat["security"]["precision"]),
              ("uapi precision", min_prec_uapi, per_cat["uapi"]["precision"]),
              ("uapi recall", min_recall_uapi, per_cat["uapi"]["recall"]))
    for what, floor, value in floors:
        if floor is None:
            continue
        if value is None and what.endswith("precision"):
            continue
        if value is None or value < floor:
            failed.append("%s %s < %.2f" % (what, fmt(value).strip(), floor))
    return failed


# ------------------------------------------------------------- review mails

READINESS_RE = re.compile(r"^  (security|user-space interface):\s+(.*?)\s*$")
# "#3 file:12: WARNING: ..." or, for the lines of one function said once,
# "#3 file lines 40-45, 52: WARNING: ... (TYPE, 7 lines)"
FINDING_RE = re.compile(
    r"^  (?:#\d+ )?(?:\[PATCH[^\]]*\] )?(?P<file>[^\s:]+)"
    r"(?::(?P<line>\d+)| lines (?P<lines>\d+(?:-\d+)?(?:, \d+(?:-\d+)?)*)(?:, \.\.\.)?)?: "
    r"(?P<sev>ERROR|WARNING|CHECK):(?: |$)")
TYPE_RE = re.compile(r"\(([A-Z][A-Z0-9_]+)(?:, \d+ lines|, which also gives [^)]*)?\)\s*$")


def entry_lines(spec):
    """[40, 41, 42, 52] of "40-42, 52"."""
    out = []
    for part in spec.split(", "):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out
SECTIONS = {"Security": "security", "User-space interface": "uapi"}


def parse_review(text):
    """{'state': {'security': 'concern', 'uapi': 'ok'},
        'findings': [{'section': 'security'|'uapi', 'file', 'line', 'type'}]}
    of a review mail; None when there was no patch to review."""
    if "no patch to review" in text:
        return None
    state = {}
    findings = []
    section = None
    cur = None
    lines_in = text.split("\n")
    for i, line in enumerate(lines_in):
        # an entry's head wrapped before its severity: read it with the
        # next line
        if (line.startswith("  #") and not FINDING_RE.match(line)
                and i + 1 < len(lines_in)):
            line = line + " " + lines_in[i + 1].strip()
        m = READINESS_RE.match(line)
        if m and section is None:
            key = "uapi" if m.group(1) != "security" else "security"
            state[key] = m.group(2).split(" (")[0]
            continue
        if line and not line.startswith(" "):
            cur = None
            section = None
            for head, cat in SECTIONS.items():
                if line.startswith(head):
                    section = cat
            if line.startswith("-- ") or line == "--":
                break
            continue
        if section is None:
            continue
        m = FINDING_RE.match(line)
        if m:
            lines = ([int(m.group("line"))] if m.group("line")
                     else entry_lines(m.group("lines")) if m.group("lines")
                     else [None])
            cur = [{"section": section, "file": m.group("file"),
                    "line": n, "type": None} for n in lines]
            findings.extend(cur)
        if cur is not None and cur[0]["type"] is None:
            t = TYPE_RE.search(line)
            if t:
                for f in cur:
                    f["type"] = t.group(1)
    return {"state": state, "findings": findings}


# ------------------------------------------------------------------ running

def find_corpus(explicit):
    if explicit:
        return explicit
    env = os.environ.get("CORPUS")
    if env:
        return os.path.join(env, "patches") if os.path.isdir(
            os.path.join(env, "patches")) else env
    d = REPO
    while True:
        cand = os.path.join(d, "shared", "corpus", "patches")
        if os.path.isdir(cand):
            return cand
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, errors="replace")
    return p.returncode, p.stdout, p.stderr


def check_findings(reviewbot, path, name, places):
    rc, out, err = run([reviewbot, "check", "--no-tree", "--json",
                        "--category", "security,uapi", path])
    try:
        doc = json.loads(out)
    except ValueError:
        raise RuntimeError("%s check %s: no JSON (exit %d): %s"
                           % (reviewbot, name, rc, err.strip()[:200]))
    found = []
    for raw in doc.get("findings", []):
        if raw.get("category") not in CATEGORIES:
            continue
        file, side, line = locate(raw, places)
        found.append({"patch": name, "category": raw["category"],
                      "type": raw.get("type"), "file": file, "side": side,
                      "line": line, "json_line": raw.get("line"),
                      "message": raw.get("message", "")})
    return found


def review(reviewbot, path):
    rc, out, err = run([reviewbot, "review", path])
    parsed = parse_review(out + "\n" + err)
    if parsed is None:
        return None
    if rc != 0 and not parsed["state"]:
        raise RuntimeError("review %s: exit %d: %s" % (path, rc, err.strip()[:200]))
    return parsed


def review_scores(reviews, check, labels):
    """Figures of the review mails.  `reviews`: {patch: parsed or None};
    `check`: located check findings (to put a review finding on its side)."""
    sec_patches = {lab["patch"] for lab in labels if lab["category"] == "security"}
    by_key = {}
    for f in check:
        by_key.setdefault((f["patch"], f["file"], f["json_line"], f["type"]), f)
    out = {"reviewed": 0, "no_patch": [], "clean": 0, "clean_concern": [],
           "sec": 0, "sec_concern": 0,
           "section": {"security": [0, 0], "uapi": [0, 0]}}
    for name, parsed in reviews.items():
        if parsed is None:
            out["no_patch"].append(name)
            continue
        out["reviewed"] += 1
        concern = parsed["state"].get("security") == "concern"
        if name in sec_patches:
            out["sec"] += 1
            out["sec_concern"] += concern
        else:
            out["clean"] += 1
            if concern:
                out["clean_concern"].append(name)
        for rf in parsed["findings"]:
            cf = by_key.get((name, rf["file"], rf["line"], rf["type"]))
            if cf is not None:
                located = dict(cf)
                located["category"] = rf["section"]
            else:
                located = {"patch": name, "category": rf["section"],
                           "file": rf["file"], "side": "new",
                           "line": None if rf["type"] in FILE_LEVEL_TYPES
                           else rf["line"]}
            s = out["section"][rf["section"]]
            s[0] += 1
            s[1] += bool(match(located, labels))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reviewbot", default=os.environ.get(
        "REVIEWBOT", os.path.join(REPO, "reviewbot")))
    ap.add_argument("--corpus", help="folder of the corpus patches "
                    "(default: $CORPUS/patches, else shared/corpus/patches "
                    "above the repository)")
    ap.add_argument("--dir", default=HERE, help="universe.txt and labels.tsv")
    ap.add_argument("--no-review", action="store_true",
                    help="score the check findings only")
    ap.add_argument("--list", action="store_true",
                    help="also list every false finding and missed label")
    ap.add_argument("--min-precision-security", type=float)
    ap.add_argument("--min-precision-uapi", type=float)
    ap.add_argument("--min-recall-uapi", type=float)
    ap.add_argument("--security-corpus", help="the labelled security corpus "
                    "(default: security/ beside the corpus's patches/)")
    ap.add_argument("--no-security-corpus", action="store_true",
                    help="score the universe's labels only")
    args = ap.parse_args(argv)

    corpus = find_corpus(args.corpus)
    if not corpus or not os.path.isdir(corpus):
        print("eval.py: corpus not found (set CORPUS= or --corpus)", file=sys.stderr)
        return 2
    if not os.access(args.reviewbot, os.X_OK):
        print("eval.py: %s is not a program (make first)" % args.reviewbot,
              file=sys.stderr)
        return 2
    try:
        universe = read_list(os.path.join(args.dir, "universe.txt"))
        labels = load_labels(os.path.join(args.dir, "labels.tsv"))
    except (OSError, ValueError) as e:
        print("eval.py: %s" % e, file=sys.stderr)
        return 2
    stray = sorted({lab["patch"] for lab in labels} - set(universe))
    if stray:
        print("eval.py: labels on patches outside the universe: %s"
              % ", ".join(stray), file=sys.stderr)
        return 2

    def one(name):
        path = os.path.join(corpus, name)
        with open(path, encoding="utf-8", errors="replace") as f:
            places = patch_places(f.read())
        found = check_findings(args.reviewbot, path, name, places)
        parsed = None if args.no_review else review(args.reviewbot, path)
        return found, parsed

    findings = []
    reviews = OrderedDict()
    try:
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for name, (found, parsed) in zip(universe, pool.map(one, universe)):
                findings += found
                reviews[name] = parsed
    except (OSError, RuntimeError) as e:
        print("eval.py: %s" % e, file=sys.stderr)
        return 2

    findings, caught = score(findings, labels)
    per_type, per_cat, per_kind = summarize(findings, labels, caught)
    nlab = defaultdict(int)
    for lab in labels:
        nlab[lab["category"]] += 1

    print("eval-signal: %d patches, %d labelled concerns (security %d, uapi %d)"
          % (len(universe), len(labels), nlab["security"], nlab["uapi"]))
    print()
    print("check --category security,uapi, per finding type")
    print("  %-9s %-26s %8s %5s %9s" % ("category", "type", "findings", "true",
                                       "precision"))
    for (cat, typ), (n, t) in per_type.items():
        print("  %-9s %-26s %8d %5d %9s" % (cat, typ, n, t, fmt(ratio(t, n))))
    print()
    print("per category")
    print("  %-9s %8s %5s %9s %7s %7s %7s" % ("category", "findings", "true",
                                            "precision", "labels", "caught",
                                            "recall"))
    for cat, c in per_cat.items():
        print("  %-9s %8d %5d %9s %7d %7d %7s"
              % (cat, c["findings"], c["true"], fmt(c["precision"]),
                 c["labels"], c["caught"], fmt(c["recall"])))
    print()
    print("recall per labelled kind")
    print("  %-9s %-24s %6s %6s %7s" % ("category", "kind", "labels", "caught",
                                       "recall"))
    for (cat, kind), (n, c) in per_kind.items():
        print("  %-9s %-24s %6d %6d %7s" % (cat, kind, n, c, fmt(ratio(c, n))))

    if not args.no_review:
        rs = review_scores(reviews, findings, labels)
        print()
        print("review mails (reviewbot review)")
        print("  reviewed %d; \"no patch to review\" %d (quilt patches without"
              " [PATCH in the subject)" % (rs["reviewed"], len(rs["no_patch"])))
        r = ratio(len(rs["clean_concern"]), rs["clean"])
        print("  \"security: concern\" on patches with no true security concern:"
              " %d of %d (%s; goal <= 0.20)"
              % (len(rs["clean_concern"]), rs["clean"], fmt(r).strip()))
        print("  \"security: concern\" on patches with a true one: %d of %d"
              % (rs["sec_concern"], rs["sec"]))
        for cat, head in (("security", "Security"),
                          ("uapi", "User-space interface")):
            n, t = rs["section"][cat]
            print("  %-21s section: %3d findings, %3d true, precision %s"
                  % (head, n, t, fmt(ratio(t, n)).strip()))
        if args.list:
            for name in rs["clean_concern"]:
                print("    false alarm: %s" % name)
            for name in rs["no_patch"]:
                print("    no patch to review: %s" % name)

    if args.list:
        print()
        print("false findings")
        for f in findings:
            if not f["true"]:
                print("  %s %s:%s %s %s" % (f["patch"], f["file"],
                                            f["line"] or "-", f["side"], f["type"]))
        print("missed labels")
        for lab in labels:
            if id(lab) not in caught:
                print("  %s %s:%s %s %s/%s" % (lab["patch"], lab["file"],
                                               lab["line"], lab["side"],
                                               lab["category"], lab["kind"]))

    if not args.no_security_corpus:
        import security_corpus
        sdir = args.security_corpus or security_corpus.find_dir(corpus)
        print()
        if sdir:
            try:
                security_corpus.run(args.reviewbot, sdir, sys.modules[__name__],
                                    list_all=args.list)
            except (OSError, ValueError, KeyError) as e:
                print("eval.py: security corpus: %s" % e, file=sys.stderr)
                return 2
        else:
            print("security corpus: not found (--security-corpus DIR)")

    failed = check_floors(per_cat, args.min_precision_security,
                          args.min_precision_uapi, args.min_recall_uapi)
    if failed:
        print()
        print("eval-signal: below the floor: %s" % "; ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
