#!/usr/bin/python3
"""Score checkpatch-format outputs against reference outputs.

Usage: score.py [--floor F] [--top N] [--types-file FILE] [--json OUT]
                [--show TYPE]... REF_DIR OUR_DIR

Both folders hold NAME.patch.out files as printed by
    checkpatch.pl --no-tree --show-types --color=never [--strict] NAME.patch

A finding is the tuple (patch, file, line, TYPE):
  * "#N: FILE: path:line:"  after the "SEVERITY:TYPE: message" line
                             -> file=path, line=line
  * "#N: " (no FILE part)   -> file=None, line=N
  * no "#N:" line at all    -> file=None, line=None
Findings are a multiset (the same tuple twice counts twice).

Prints a per-type table (sorted by reference count), micro
precision/recall/F1, and lists outputs present in REF_DIR but missing in
OUR_DIR.  If OUR_DIR holds NAME.patch.out.status files (exit codes written by
tests/compat/run.sh) they are checked against the reference's implied exit
status (1 when it has any finding, else 0).

Exit status: 0 ok; 1 micro-F1 below --floor, or outputs missing;
2 usage error.
"""

import argparse
import json
import os
import re
import signal
import sys
from collections import Counter

FINDING_RE = re.compile(r"^(ERROR|WARNING|CHECK):([A-Za-z0-9_]+): ")
LOC_FILE_RE = re.compile(r"^#(\d+): FILE: (.*):(\d+):$")
LOC_RE = re.compile(r"^#(\d+):( |$)")
SUFFIX = ".out"


def parse_output(text, patch):
    """Return a Counter of (patch, file, line, type) and the count of findings."""
    found = Counter()
    lines = text.split("\n")
    i = 0
    n = len(lines)
    while i < n:
        m = FINDING_RE.match(lines[i])
        if not m:
            i += 1
            continue
        ftype = m.group(2)
        fname = None
        fline = None
        # The location is the first "#N:" line before a blank line or the
        # next finding (a message may in principle span several lines).
        j = i + 1
        while j < n and lines[j] != "" and not FINDING_RE.match(lines[j]):
            lm = LOC_FILE_RE.match(lines[j])
            if lm:
                fname, fline = lm.group(2), int(lm.group(3))
                break
            lm = LOC_RE.match(lines[j])
            if lm:
                fline = int(lm.group(1))
                break
            j += 1
        found[(patch, fname, fline, ftype)] += 1
        i = j
    return found


def read_text(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", errors="surrogateescape")


def list_outputs(folder):
    return sorted(f for f in os.listdir(folder) if f.endswith(SUFFIX))


def ratio(num, den):
    return num / den if den else None


def f1(p, r):
    if p is None or r is None:
        return None
    return 2 * p * r / (p + r) if (p + r) else 0.0


def fmt(x):
    return "    -" if x is None else "%5.3f" % x


def main(argv):
    ap = argparse.ArgumentParser(
        description="Score checkpatch-format outputs against a reference.")
    ap.add_argument("--floor", type=float, default=None,
                    help="exit 1 if micro-F1 is below F")
    ap.add_argument("--top", type=int, default=None,
                    help="print only the N most frequent types")
    ap.add_argument("--types-file", default=None,
                    help="score only the types listed in FILE (one a line)")
    ap.add_argument("--json", dest="json_out", default=None,
                    help="write per-type and micro figures as JSON to OUT")
    ap.add_argument("--show", action="append", default=[], metavar="TYPE",
                    help="list missed/extra findings of TYPE (repeatable; ALL for every type)")
    ap.add_argument("ref_dir")
    ap.add_argument("our_dir")
    args = ap.parse_args(argv)

    for d in (args.ref_dir, args.our_dir):
        if not os.path.isdir(d):
            print("score: not a folder: %s" % d, file=sys.stderr)
            return 2

    only = None
    if args.types_file:
        only = set()
        for line in read_text(args.types_file).splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                only.add(line)

    ref_files = list_outputs(args.ref_dir)
    our_set = set(list_outputs(args.our_dir))
    missing = [f for f in ref_files if f not in our_set]
    extra = sorted(our_set - set(ref_files))

    ref = Counter()
    ours = Counter()
    identical = 0
    status_checked = 0
    status_bad = []
    for f in ref_files:
        patch = f[:-len(SUFFIX)]
        rtext = read_text(os.path.join(args.ref_dir, f))
        rfind = parse_output(rtext, patch)
        ref.update(rfind)
        if f not in our_set:
            continue
        otext = read_text(os.path.join(args.our_dir, f))
        ours.update(parse_output(otext, patch))
        if otext == rtext:
            identical += 1
        spath = os.path.join(args.our_dir, f + ".status")
        if os.path.exists(spath):
            status_checked += 1
            want = 1 if sum(rfind.values()) else 0
            got = read_text(spath).strip()
            if got != str(want):
                status_bad.append((patch, want, got))

    if only is not None:
        ref = Counter({k: v for k, v in ref.items() if k[3] in only})
        ours = Counter({k: v for k, v in ours.items() if k[3] in only})

    tp = ref & ours
    types = {}
    for counter, idx in ((ref, 0), (ours, 1), (tp, 2)):
        for k, v in counter.items():
            types.setdefault(k[3], [0, 0, 0])[idx] += v
    if only is not None:
        for t in only:
            types.setdefault(t, [0, 0, 0])

    rows = []
    for t, (nref, nour, ntp) in types.items():
        p = ratio(ntp, nour)
        r = ratio(ntp, nref)
        rows.append({"type": t, "ref": nref, "ours": nour, "tp": ntp,
                     "precision": p, "recall": r, "f1": f1(p, r)})
    rows.sort(key=lambda x: (-x["ref"], -x["ours"], x["type"]))

    tot_ref = sum(ref.values())
    tot_our = sum(ours.values())
    tot_tp = sum(tp.values())
    mp = ratio(tot_tp, tot_our)
    mr = ratio(tot_tp, tot_ref)
    if tot_ref == 0 and tot_our == 0:
        mp = mr = 1.0
    mf = f1(mp, mr)
    if mf is None:
        mf = 0.0

    shown = rows if args.top is None else rows[:args.top]
    w = max([len("TYPE")] + [len(r["type"]) for r in shown])
    print("%-*s %6s %6s %6s %6s %6s %6s" % (w, "TYPE", "REF", "OURS", "TP",
                                            "PREC", "REC", "F1"))
    for r in shown:
        print("%-*s %6d %6d %6d  %s  %s  %s" % (
            w, r["type"], r["ref"], r["ours"], r["tp"],
            fmt(r["precision"]), fmt(r["recall"]), fmt(r["f1"])))
    if len(shown) < len(rows):
        print("... %d more types" % (len(rows) - len(shown)))
    print()
    print("types: %d in reference, %d in ours, %d with F1=1.000"
          % (sum(1 for r in rows if r["ref"]), sum(1 for r in rows if r["ours"]),
             sum(1 for r in rows if r["f1"] == 1.0)))
    print("outputs: %d reference, %d ours, %d byte-identical%s"
          % (len(ref_files), len(our_set & set(ref_files)), identical,
             " (types filter ignored)" if only is not None else ""))
    if status_checked:
        print("exit status: %d checked, %d wrong" % (status_checked, len(status_bad)))
        for patch, want, got in status_bad[:20]:
            print("  status %s: want %d, got %s" % (patch, want, got))
    print("micro: ref %d, ours %d, tp %d, precision %s, recall %s, F1 %s"
          % (tot_ref, tot_our, tot_tp, fmt(mp).strip(), fmt(mr).strip(),
             "%.4f" % mf))

    for t in args.show:
        sel = (lambda k: True) if t == "ALL" else (lambda k, t=t: k[3] == t)
        fn = sorted(((ref - ours) & Counter({k: v for k, v in ref.items() if sel(k)})).elements(),
                    key=str)
        fp = sorted(((ours - ref) & Counter({k: v for k, v in ours.items() if sel(k)})).elements(),
                    key=str)
        print()
        print("%s: %d missed (in reference only), %d extra (in ours only)" % (t, len(fn), len(fp)))
        for k in fn:
            print("  missed %s %s:%s %s" % (k[0], k[1], k[2], k[3]))
        for k in fp:
            print("  extra  %s %s:%s %s" % (k[0], k[1], k[2], k[3]))

    status = 0
    for f in missing:
        print("ERROR: missing output: %s" % os.path.join(args.our_dir, f))
    if missing:
        print("ERROR: %d of %d outputs missing in %s" % (len(missing), len(ref_files), args.our_dir))
        status = 1
    for f in extra:
        print("warning: output without reference: %s" % f, file=sys.stderr)

    if args.json_out:
        with open(args.json_out, "w") as fo:
            json.dump({"types": rows,
                       "micro": {"ref": tot_ref, "ours": tot_our, "tp": tot_tp,
                                 "precision": mp, "recall": mr, "f1": mf},
                       "outputs": {"reference": len(ref_files),
                                   "missing": missing,
                                   "identical": identical},
                       "status_mismatches": [{"patch": p, "want": w_, "got": g}
                                             for p, w_, g in status_bad]},
                      fo, indent=1, sort_keys=True)
            fo.write("\n")

    if args.floor is not None and mf < args.floor:
        print("FAIL: micro-F1 %.4f is below the floor %.4f" % (mf, args.floor))
        status = 1
    return status


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main(sys.argv[1:]))
