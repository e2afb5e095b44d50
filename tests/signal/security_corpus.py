#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The security corpus part of make eval-signal.

shared/corpus/security/ holds 80 real 2025-2026 patch mails (linux-usb,
linux-input, linux-bluetooth) labelled blind, line by line: lines.tsv
(patch, file, new-side line, category security|uapi, must 1|0, why) and
patches.tsv (patch, security concern|none, uapi change|none, kind).  Its
README gives the rules.  This scores what reviewbot says of them:

  * per finding type: findings, true ones (on a labelled line of the same
    category and file, +-2 lines; a must=0 label is worth a remark, so a
    finding on it is true too), precision;
  * per category: precision, recall of the must=1 lines;
  * recall per kind of bug (the kind read off each label's why);
  * per patch: of the patches with no security content, how many get a
    security finding (the goal: at most 5%); of the interface-changing
    patches, how many get a true uapi finding (the goal: at least 90%);
  * the review mails (reviewbot review): how often the checklist raises
    security ("concern" or "fixes a security bug") on patches with and
    without security content, checklist lines that claim "ok" for a stage
    that did not run, and whether the Security and User-space interface
    sections list exactly the security and uapi findings of `reviewbot
    check --json --category security,uapi` (no more, no fewer).

A measurement: it never fails by itself; eval.py's floors apply to its
figures when asked (--min-* options).  Standard library only.
"""

import csv
import json
import os
import re
import subprocess
from collections import OrderedDict, defaultdict

SLACK = 2

# the kind of a label, read off its why: the first rule that matches
SECURITY_KINDS = (
    ("use-after-free", r"\buaf\b|use-after-free|use after free"),
    ("double-free", r"double free"),
    ("info-leak", r"info-leak|leak|stale|uninit|zero(?:es|ed)? the (?:struct|buffer)"),
    ("permission", r"capab|permission|privilege|deputy"),
    ("security-check", r"security check|key size|key-size"),
    ("int-overflow", r"int-overflow|int-underflow|wrap|underflow"),
    ("race", r"\brace\b"),
    ("dos", r"\bdos\b|null dereference|leak of every"),
    ("oob", r"oob|out-of-bounds|bound|length check|size check|overflow|past"),
)
UAPI_KINDS = (
    ("removed-renamed", r"\bremoved\b|\brenamed\b|revert"),
    ("sysfs", r"sysfs"),
    ("module-param", r"module param"),
    ("ioctl", r"ioctl"),
    ("socket", r"socket option|sockopt|setsockopt|cmsg"),
    ("mgmt", r"\bmgmt\b"),
    ("netlink", r"netlink"),
    ("default", r"default"),
    ("uapi-header", r"uapi|flexible array|packet type|wire format|key code|button code|axis"),
    ("node", r"misc|chrdev|class|device node|registration"),
)


def kind_of(category, why):
    """The kind of a label from its category and why text."""
    text = why.lower()
    for kind, pat in (SECURITY_KINDS if category == "security" else UAPI_KINDS):
        if re.search(pat, text):
            return kind
    return "other"


def find_dir(corpus_patches):
    """shared/corpus/security beside the corpus's patches/ folder."""
    if not corpus_patches:
        return None
    d = os.path.join(os.path.dirname(os.path.abspath(corpus_patches)), "security")
    if os.path.isfile(os.path.join(d, "lines.tsv")):
        return d
    return None


def load(d):
    """(labels, patches) of the corpus in folder d."""
    labels = []
    with open(os.path.join(d, "lines.tsv"), encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            row["line"] = int(row["line"])
            row["must"] = row["must"] == "1"
            row["kind"] = kind_of(row["category"], row["why"])
            labels.append(row)
    patches = OrderedDict()
    with open(os.path.join(d, "patches.tsv"), encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            patches[row["patch"]] = row
    return labels, patches


def matches(found, labels):
    """Labels a finding (patch, category, file, line or None) is on."""
    out = []
    for lab in labels:
        if (lab["patch"] != found["patch"] or lab["category"] != found["category"]
                or lab["file"] != found["file"]):
            continue
        if found["line"] is None or abs(lab["line"] - found["line"]) <= SLACK:
            out.append(lab)
    out.sort(key=lambda lab: 0 if found["line"] is None else abs(lab["line"] - found["line"]))
    return out


def score(findings, labels):
    """Marks findings true and returns the set of caught label ids: a line
    finding catches its nearest label; a file-level one, or a type that
    names every attribute of its file, all it is on."""
    caught = set()
    for f in findings:
        hits = matches(f, labels)
        f["true"] = bool(hits)
        if not hits:
            continue
        if f["line"] is None or f["group"]:
            caught.update(id(lab) for lab in hits)
        else:
            caught.add(id(hits[0]))
    return caught


CHECKLIST_RE = re.compile(r"^  ([a-z][a-z -]+):\s+(.*?)\s*$")


def checklist(text):
    """{criterion: value} of a review mail's merge-readiness lines."""
    out = {}
    started = False
    for line in text.split("\n"):
        if line.startswith("Merge readiness"):
            started = True
            continue
        if started:
            m = CHECKLIST_RE.match(line)
            if not m:
                if out:
                    break
                continue
            out[m.group(1)] = m.group(2)
    return out


def unearned_ok(cl):
    """Checklist lines that claim "ok" without a stage that ran: only
    "compiles" and "seems to work" may say "ok", and only with the stage's
    own words in parentheses."""
    bad = []
    for crit, value in cl.items():
        if not re.match(r"ok\b", value):
            continue
        if crit in ("compiles", "seems to work") and "(" in value:
            continue
        bad.append("%s: %s" % (crit, value))
    return bad


def run(reviewbot, d, eval_mod, list_all=False):
    """Scores the corpus in d; prints the report; returns its figures."""
    labels, patches = load(d)
    pdir = os.path.join(d, "patches")
    findings = []
    reviews = {}
    for name in patches:
        path = os.path.join(pdir, name)
        with open(path, encoding="utf-8", errors="replace") as f:
            places = eval_mod.patch_places(f.read())
        p = subprocess.run([reviewbot, "check", "--no-tree", "--json", "--category",
                            "security,uapi", path], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, errors="replace")
        doc = json.loads(p.stdout)
        for raw in doc.get("findings", []):
            if raw.get("category") not in ("security", "uapi"):
                continue
            file, side, line = eval_mod.locate(raw, places)
            findings.append({"patch": name, "category": raw["category"],
                             "type": raw.get("type"), "file": file, "side": side,
                             "line": line, "json_line": raw.get("line"),
                             "group": raw.get("type") in eval_mod.GROUP_TYPES})
        p = subprocess.run([reviewbot, "review", path], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, errors="replace")
        reviews[name] = (p.stdout, eval_mod.parse_review(p.stdout + "\n" + p.stderr))
    caught = score(findings, labels)

    per_type = OrderedDict()
    for f in sorted(findings, key=lambda f: (f["category"], f["type"])):
        t = per_type.setdefault((f["category"], f["type"]), [0, 0])
        t[0] += 1
        t[1] += f["true"]
    fig = {}
    print("security corpus (%s): %d patches, %d labels (%d must-flag security, %d must-flag uapi)"
          % (d, len(patches), len(labels),
             sum(1 for lab in labels if lab["must"] and lab["category"] == "security"),
             sum(1 for lab in labels if lab["must"] and lab["category"] == "uapi")))
    print()
    print("check --category security,uapi, per finding type")
    print("  %-9s %-26s %8s %5s %9s" % ("category", "type", "findings", "true", "precision"))
    for (cat, typ), (n, t) in per_type.items():
        print("  %-9s %-26s %8d %5d %9s" % (cat, typ, n, t, eval_mod.fmt(eval_mod.ratio(t, n))))
    print()
    print("per category (recall of the must-flag lines)")
    print("  %-9s %8s %5s %9s %7s %7s %7s" % ("category", "findings", "true", "precision",
                                            "must", "caught", "recall"))
    for cat in ("security", "uapi"):
        fs = [f for f in findings if f["category"] == cat]
        must = [lab for lab in labels if lab["category"] == cat and lab["must"]]
        nt = sum(f["true"] for f in fs)
        nc = sum(id(lab) in caught for lab in must)
        fig[cat] = {"precision": eval_mod.ratio(nt, len(fs)), "recall": eval_mod.ratio(nc, len(must)),
                    "findings": len(fs), "true": nt, "must": len(must), "caught": nc}
        print("  %-9s %8d %5d %9s %7d %7d %7s" % (cat, len(fs), nt,
                                                eval_mod.fmt(fig[cat]["precision"]),
                                                len(must), nc, eval_mod.fmt(fig[cat]["recall"])))
    print()
    print("recall of the must-flag lines per kind of bug or interface")
    print("  %-9s %-18s %6s %6s %7s" % ("category", "kind", "labels", "caught", "recall"))
    per_kind = OrderedDict()
    for lab in sorted(labels, key=lambda l: (l["category"], l["kind"])):
        if not lab["must"]:
            continue
        k = per_kind.setdefault((lab["category"], lab["kind"]), [0, 0])
        k[0] += 1
        k[1] += id(lab) in caught
    for (cat, kind), (n, c) in per_kind.items():
        print("  %-9s %-18s %6d %6d %7s" % (cat, kind, n, c, eval_mod.fmt(eval_mod.ratio(c, n))))

    # per patch
    sec_found = defaultdict(int)
    uapi_true = defaultdict(int)
    for f in findings:
        if f["category"] == "security":
            sec_found[f["patch"]] += 1
        if f["category"] == "uapi" and f["true"]:
            uapi_true[f["patch"]] += 1
    # no security content: no security label at all (a must=0 line is
    # content worth a remark, a patches.tsv "none" all the same)
    with_sec = {lab["patch"] for lab in labels if lab["category"] == "security"}
    clean = [n for n in patches if n not in with_sec]
    alarmed = [n for n in clean if sec_found[n]]
    changing = [n for n, p in patches.items() if p["uapi"] == "change"]
    caught_p = [n for n in changing if uapi_true[n]]
    fig["false_alarm_patches"] = eval_mod.ratio(len(alarmed), len(clean))
    fig["uapi_patch_recall"] = eval_mod.ratio(len(caught_p), len(changing))
    print()
    print("per patch")
    print("  a security finding on %d of the %d patches with no security content (%s; goal <= 0.05)"
          % (len(alarmed), len(clean), eval_mod.fmt(fig["false_alarm_patches"]).strip()))
    print("  a true uapi finding on %d of the %d interface-changing patches (%s; goal >= 0.90)"
          % (len(caught_p), len(changing), eval_mod.fmt(fig["uapi_patch_recall"]).strip()))

    # the review mails
    raised_sec = raised_clean = 0
    ok_claims = []
    mismatch = []
    sec_patches = [n for n, p in patches.items() if p["security"] == "concern"]
    for name, (text, parsed) in reviews.items():
        cl = checklist(text)
        s = cl.get("security", "")
        raised = s.startswith("concern") or s.startswith("fixes a security bug")
        if patches[name]["security"] == "concern":
            raised_sec += raised
        elif name not in with_sec:
            raised_clean += raised
        ok_claims += ["%s: %s" % (name, b) for b in unearned_ok(cl)]
        if parsed is None:
            continue
        shown = sorted((rf["file"], rf["line"] or 0, rf["type"] or "") for rf in parsed["findings"])
        checked = sorted((f["file"] or "", f["json_line"] or 0, f["type"] or "") for f in findings
                         if f["patch"] == name)
        if shown != checked:
            mismatch.append(name)
    fig["checklist_raised_sec"] = eval_mod.ratio(raised_sec, len(sec_patches))
    fig["checklist_raised_clean"] = eval_mod.ratio(raised_clean, len(clean))
    fig["unearned_ok"] = len(ok_claims)
    fig["section_mismatch"] = len(mismatch)
    print()
    print("review mails (reviewbot review)")
    print("  checklist raises security on %d of %d patches with security content, on %d of %d without"
          % (raised_sec, len(sec_patches), raised_clean, len(clean)))
    print("  checklist lines claiming ok for what did not run: %d" % len(ok_claims))
    print("  reviews whose Security and User-space interface sections differ from check --json: %d of %d"
          % (len(mismatch), len(reviews)))
    if list_all:
        for x in ok_claims:
            print("    unearned ok: %s" % x)
        for n in mismatch:
            print("    sections differ: %s" % n)
        for n in alarmed:
            print("    false alarm: %s" % n)
        print()
        print("  false findings")
        for f in findings:
            if not f["true"]:
                print("    %s %s:%s %s" % (f["patch"], f["file"], f["line"], f["type"]))
        print("  missed must-flag lines")
        for lab in labels:
            if lab["must"] and id(lab) not in caught:
                print("    %s %s:%d %s/%s" % (lab["patch"], lab["file"], lab["line"],
                                             lab["category"], lab["kind"]))
    return fig
