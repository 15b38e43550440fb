#!/usr/bin/env python3
"""Precision and recall of lingo's find_references against the reference
tool, from the JSON files measure.py wrote (one per project).

Matching: a truth reference and a lingo reference match when they are in
the same file, on the same line, and start at the same column; or, when
lingo's range is wider than the name (a path such as `a::b::name`), when
the truth's start column lies inside lingo's range on that line. One-to-one;
lingo's certain references are matched first, then its guesses.

Measures (summed over the sample, micro-averaged):
- certain: lingo references whose resolution is not name_only and whose
  confidence is 1.0; the others lingo returned are labelled guesses.
- certain precision = certain references matching the truth / certain
  references (those matching a `merged` truth site count on neither side).
- certain recall = truth references lingo returned as certain / truth.
- recall with guesses = truth references lingo returned at all / truth.
- misses: truth references lingo did not return; each is `listed` among
  completeness.possibly_missed_sites, `counted` (the answer said
  complete: false) or `silent` (the answer claimed to be complete).
- unjudged: lingo sites outside the truth where the tool's go-to-definition
  finds nothing (code it does not analyse: an inactive `#[cfg]`, a Go build
  tag): left out of precision, counted apart.
- merged: truth sites where the tool's go-to-definition leads to another
  declaration (overrides, implementations; mostly tsserver), or that
  Roslyn found only for a related symbol it cascaded to (C#): reported in
  their own column, left out of recall and misses.

    report.py results/*.json                           # tables
    report.py --worst 5 results/rust-*.json            # + worst symbols
    report.py --markdown summary.md results/*.json     # + a fragment for BENCHMARKS.md
"""

from __future__ import annotations

import argparse
import gzip
import json
from collections import defaultdict
from pathlib import Path

from categories import CATEGORIES

LANGUAGES = ["rust", "go", "typescript", "csharp", "java", "python"]
# Targets per language, pooled: certain precision, certain recall; zero silent
# misses. Python's recall target is lower: most of its values state no type.
TARGETS = {"rust": (0.98, 0.90), "go": (0.98, 0.90), "typescript": (0.98, 0.95), "csharp": (0.98, 0.95),
           "java": (0.98, 0.95),
           "python": (0.98, 0.75)}
KIND_GROUPS = {"struct": "types", "class": "types", "enum": "types", "interface": "types",
               "function": "functions", "method": "methods", "constructor": "constructors",
               "field": "fields",
               "property": "fields", "constant": "constants, variables",
               "variable": "constants, variables"}
COUNTS = ["truth", "certain", "lingo", "tp_certain", "found_certain", "found_guess",
          "listed", "counted", "silent", "merged", "merged_found", "unjudged"]


def match(truth: list[dict], found: list[dict]) -> dict[int, int]:
    """Pairs truth[i] -> found[j]; exact start matches are taken first."""
    pairs: dict[int, int] = {}
    used: set[int] = set()
    by_start = {}
    for j, f in enumerate(found):
        by_start.setdefault((f["file"], f["line"], f["character"]), []).append(j)
    for i, t in enumerate(truth):
        for j in by_start.get((t["file"], t["line"], t["character"]), []):
            if j not in used:
                pairs[i] = j
                used.add(j)
                break
    for i, t in enumerate(truth):
        if i in pairs:
            continue
        for j, f in enumerate(found):
            if j in used or f["file"] != t["file"] or f["line"] != t["line"]:
                continue
            end = f["end_character"] if f["end_line"] == f["line"] else 1 << 30
            if f["character"] <= t["character"] < end:
                pairs[i] = j
                used.add(j)
                break
    return pairs


def is_certain(ref: dict) -> bool:
    confidence = ref.get("confidence")
    return ref["resolution"] != "name_only" and (confidence is None or confidence >= 1.0)


def symbol_stats(s: dict) -> dict:
    """Counts for one declaration, and how each truth site fared."""
    truth = s["truth"]
    lingo = s["lingo"]["references"]
    certain = [j for j, r in enumerate(lingo) if is_certain(r)]
    guesses = [j for j, r in enumerate(lingo) if not is_certain(r)]
    found = {i: ("certain", certain[k]) for i, k in match(truth, [lingo[j] for j in certain]).items()}
    rest = [i for i in range(len(truth)) if i not in found]
    for k, j in match([truth[i] for i in rest], [lingo[j] for j in guesses]).items():
        found[rest[k]] = ("guess", guesses[j])

    completeness = s["lingo"]["completeness"] or {}
    shown = {(m["file_path"], m["range"]["start"]["line"])
             for m in completeness.get("possibly_missed_sites", []) or []}
    flagged = completeness.get("complete") is False
    c = dict.fromkeys(COUNTS, 0)
    c["lingo"] = len(lingo)
    by_category = defaultdict(lambda: dict.fromkeys(["truth", "certain", "guess", "listed", "counted", "silent"], 0))
    by_area = defaultdict(lambda: dict.fromkeys(["truth", "certain", "guess", "listed", "counted", "silent",
                                                  "certain_listed", "false_certain"], 0))
    fate = []
    matched_merged = set()
    for i, t in enumerate(truth):
        how, j = found.get(i, (None, None))
        if t.get("merged"):
            c["merged"] += 1
            if how:
                c["merged_found"] += 1
                matched_merged.add(j)
            fate.append("merged")
            continue
        if how is None:
            how = "listed" if (t["file"], t["line"]) in shown else "counted" if flagged else "silent"
        c["truth"] += 1
        c[{"certain": "found_certain", "guess": "found_guess"}.get(how, how)] += 1
        cat = by_category[t.get("category", "other")]
        cat["truth"] += 1
        cat[how] += 1
        area = by_area[area_of(t["file"])]
        area["truth"] += 1
        area[how] += 1
        fate.append(how)
    matched = {j for _, j in found.values()}
    unjudged = {(u["file"], u["line"], u["character"]) for u in s.get("unverifiable", [])}
    left_out = {j for j in certain if j not in matched
                and (lingo[j]["file"], lingo[j]["line"], lingo[j]["character"]) in unjudged}
    c["unjudged"] = len(left_out)
    c["certain"] = sum(1 for j in certain if j not in matched_merged and j not in left_out)
    c["tp_certain"] = c["found_certain"]
    false_certain = [lingo[j] for j in certain if j not in matched and j not in left_out]
    for j in certain:
        if j not in matched_merged and j not in left_out:
            by_area[area_of(lingo[j]["file"])]["certain_listed"] += 1
    for r in false_certain:
        by_area[area_of(r["file"])]["false_certain"] += 1
    return {
        **c,
        "by_category": dict(by_category),
        "by_area": dict(by_area),
        "fate": fate,
        "extra": [lingo[j] for j in range(len(lingo)) if j not in matched],
        "false_certain": [lingo[j] for j in certain if j not in matched and j not in left_out],
        "error": (s["lingo"]["error"] or {}).get("code") if s["lingo"]["error"] else None,
    }


def ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "n/a"


def total(stats: list[dict]) -> dict:
    t = {k: sum(x[k] for x in stats) for k in COUNTS}
    t["symbols"] = len(stats)
    t["precision"] = ratio(t["tp_certain"], t["certain"])
    t["recall"] = ratio(t["found_certain"], t["truth"])
    t["recall_guesses"] = ratio(t["found_certain"] + t["found_guess"], t["truth"])
    return t


def table(head: list[str], rows: list[list[str]], markdown: bool) -> str:
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
    else:
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
        lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in [head] + rows]
    return "\n".join(lines)


def project_table(lang: str, records: list[dict], stats: dict, markdown: bool) -> str:
    head = ["project", "symbols (picked/candidates)", "truth refs", "lingo refs certain/all",
            "certain precision", "certain recall", "recall with guesses",
            "misses listed/counted/silent", "merged by override (lingo found)"]

    def row(name, t, picked, candidates):
        return [name, f"{t['symbols']} ({picked}/{candidates})", str(t["truth"]),
                f"{t['certain']}/{t['lingo']}", t["precision"], t["recall"], t["recall_guesses"],
                f"{t['listed']}/{t['counted']}/{t['silent']}", f"{t['merged']} ({t['merged_found']})"]

    rows = [row(r["project"], total(stats[id(r)]), r["picked"], r["candidates"]) for r in records]
    if len(records) > 1:
        pooled = total([x for r in records for x in stats[id(r)]])
        rows.append(row("pooled", pooled, sum(r["picked"] for r in records),
                        sum(r["candidates"] for r in records)))
    return table(head, rows, markdown)


def category_table(records: list[dict], stats: dict, markdown: bool) -> str:
    head = ["category", "truth refs", "certain recall", "recall with guesses", "misses (silent)"]
    cats = defaultdict(lambda: defaultdict(int))
    for r in records:
        for x in stats[id(r)]:
            for name, c in x["by_category"].items():
                for k, v in c.items():
                    cats[name][k] += v
    rows = []
    for name in CATEGORIES:
        c = cats.get(name)
        if not c:
            continue
        misses = c["listed"] + c["counted"] + c["silent"]
        rows.append([name, str(c["truth"]), ratio(c["certain"], c["truth"]),
                     ratio(c["certain"] + c["guess"], c["truth"]), f"{misses} ({c['silent']})"])
    return table(head, rows, markdown)


def area_of(path: str) -> str:
    """The top folder of a workspace-relative path (`src`, `tests`...), `.` at the root."""
    return path.split("/", 1)[0] if "/" in path else "."


def area_table(records: list[dict], stats: dict, markdown: bool) -> str:
    """Truth sites and lingo's certain ones by the top folder they are in."""
    head = ["folder", "truth refs", "certain precision", "certain recall", "recall with guesses",
            "misses (silent)"]
    areas = defaultdict(lambda: defaultdict(int))
    for r in records:
        for x in stats[id(r)]:
            for name, c in x.get("by_area", {}).items():
                for k, v in c.items():
                    areas[name][k] += v
    rows = []
    for name in sorted(areas, key=lambda a: -areas[a]["truth"]):
        c = areas[name]
        misses = c["listed"] + c["counted"] + c["silent"]
        rows.append([name, str(c["truth"]),
                     ratio(c["certain_listed"] - c["false_certain"], c["certain_listed"]),
                     ratio(c["certain"], c["truth"]), ratio(c["certain"] + c["guess"], c["truth"]),
                     f"{misses} ({c['silent']})"])
    return table(head, rows, markdown)


def kind_table(records: list[dict], stats: dict, markdown: bool) -> str:
    head = ["declarations", "symbols", "truth refs", "certain precision", "certain recall",
            "recall with guesses"]
    groups = defaultdict(list)
    for r in records:
        for s, x in zip(r["symbols"], stats[id(r)]):
            groups[KIND_GROUPS[s["kind"]]].append(x)
    rows = []
    for g in dict.fromkeys(KIND_GROUPS.values()):
        if g in groups:
            t = total(groups[g])
            rows.append([g, str(t["symbols"]), str(t["truth"]), t["precision"], t["recall"],
                         t["recall_guesses"]])
    return table(head, rows, markdown)


def targets_line(lang: str, records: list[dict], stats: dict) -> str:
    t = total([x for r in records for x in stats[id(r)]])
    precision, recall = TARGETS[lang]

    def verdict(ok):
        return "met" if ok else "NOT met"

    p = float(t["precision"]) if t["precision"] != "n/a" else 0.0
    r = float(t["recall"]) if t["recall"] != "n/a" else 0.0
    return (f"Targets ({lang}, pooled): certain precision {t['precision']} >= {precision}: {verdict(p >= precision)}; "
            f"certain recall {t['recall']} >= {recall}: {verdict(r >= recall)}; "
            f"silent misses {t['silent']} = 0: {verdict(t['silent'] == 0)}.")


def notes(r: dict, stats: list[dict]) -> str:
    syms = r["symbols"]
    from_def = sum(1 for s in syms for t in s["truth"] if t.get("source") == "definition")
    truth_all = sum(len(s["truth"]) for s in syms)
    excl = defaultdict(int)
    for s in syms:
        for t in s.get("excluded", []):
            excl[t["why"]] += 1
    errors = sum(1 for x in stats if x["error"])
    return (f"{r['project']}: {r['candidates']} candidates, every {r['step']}th from {r['start']}: "
            f"{r['picked']} picked, {len(r['skipped_unreferenced'])} without references"
            + (f", {len(r['skipped_unanalyzed'])} not analysed by the tool" if r["skipped_unanalyzed"] else "")
            + f"; truth {truth_all - from_def} from the tool's references"
            f" ({sum(x['merged'] for x in stats)} of them merged by override) + {from_def} lingo sites its"
            f" go-to-definition confirmed; excluded {excl['declaration']} other declarations,"
            f" {excl['comment']} in comments; {sum(x['unjudged'] for x in stats)} certain lingo sites"
            f" unjudged (no definition there)"
            + (f"; lingo answered an error for {errors}" if errors else ""))


def print_worst(record: dict, stats: list[dict], n: int) -> None:
    ranked = sorted(
        zip(record["symbols"], stats),
        key=lambda p: (-(p[1]["truth"] - p[1]["found_certain"] + len(p[1]["false_certain"])),
                       p[0]["file"], p[0]["line"]),
    )
    print(f"\nworst {n} ({record['project']}): truth not certain + false certain")
    for s, x in ranked[:n]:
        print(f"- {s['kind']} {s['name']} ({s['file']}:{s['line'] + 1}): truth {x['truth']}"
              f" (+{x['merged']} merged), lingo {x['lingo']} ({x['certain']} certain),"
              f" certain {x['found_certain']}, guessed {x['found_guess']},"
              f" listed/counted/silent {x['listed']}/{x['counted']}/{x['silent']}, error {x['error']}")
        shown = 0
        for t, fate in zip(s["truth"], x["fate"]):
            if fate not in ("certain", "merged") and shown < 4:
                shown += 1
                print(f"    {fate:7} {t['file']}:{t['line'] + 1}:{t['character'] + 1}"
                      f" [{t.get('category')}]  {t.get('text', '')[:90]}")
        for r in x["false_certain"][:3]:
            print(f"    false   {r['file']}:{r['line'] + 1}:{r['character'] + 1} [{r['resolution']}]"
                  f"  {(r.get('line_text') or '').strip()[:90]}")


def markdown_fragment(by_lang: dict, stats: dict) -> str:
    records = [r for rs in by_lang.values() for r in rs]
    commits = sorted({r["lingo_commit"] for r in records})
    dates = sorted({r.get("measured_at", "?") for r in records})
    built = sorted({r.get("lingo_binary_mtime", "?") for r in records})
    out = [f"lingo at commit `{'`, `'.join(commits)}` (binary built {', '.join(built)}), "
           f"measured {', '.join(dates)}; "
           f"seed {records[0]['seed']}, about {records[0]['sample_target']} declarations per project "
           f"(every Nth candidate).", ""]
    out.append(table(["language", "project", "files, lines", "reference tool"],
                     [[r["language"], r["project"], f"{r['files']}, {r.get('lines', '?'):,}",
                       r["reference_tool"]] for r in records], True))
    for lang, rs in by_lang.items():
        out += ["", f"**{lang}**", "", project_table(lang, rs, stats, True), "",
                category_table(rs, stats, True), "", area_table(rs, stats, True), "",
                kind_table(rs, stats, True), "",
                targets_line(lang, rs, stats)]
    out += ["", "Samples and truth:", ""]
    out += [f"- {notes(r, stats[id(r)])}" for r in records]
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="+", type=Path)
    ap.add_argument("--markdown", type=Path, help="also write a markdown fragment for BENCHMARKS.md here")
    ap.add_argument("--worst", type=int, default=0)
    args = ap.parse_args()
    # A large result is kept gzipped (`<language>-<project>.json.gz`).
    records = [
        json.loads(gzip.decompress(p.read_bytes()) if p.suffix == ".gz" else p.read_text())
        for p in args.results
    ]
    stats = {id(r): [symbol_stats(s) for s in r["symbols"]] for r in records}
    by_lang = {lang: [r for r in records if r["language"] == lang] for lang in LANGUAGES}
    by_lang = {k: v for k, v in by_lang.items() if v}
    for lang, rs in by_lang.items():
        print(f"== {lang}: {', '.join(sorted({r['reference_tool'] for r in rs}))};"
              f" lingo {', '.join(sorted({r['lingo_commit'] for r in rs}))}\n")
        print(project_table(lang, rs, stats, False) + "\n")
        print(category_table(rs, stats, False) + "\n")
        print(area_table(rs, stats, False) + "\n")
        print(kind_table(rs, stats, False) + "\n")
        print(targets_line(lang, rs, stats))
        for r in rs:
            print(notes(r, stats[id(r)]))
        print()
    if args.worst:
        for r in records:
            print_worst(r, stats[id(r)], args.worst)
    if args.markdown:
        args.markdown.write_text(markdown_fragment(by_lang, stats))
        print(f"\nwrote {args.markdown}")


if __name__ == "__main__":
    main()
