#!/usr/bin/env python3
"""Precision and recall of lingo's find_references against the reference
tool, from the JSON files measure.py wrote.

A truth reference and a lingo reference match when they are in the same
file, on the same line, and start at the same column; or, when lingo's range
is wider than the name (a path such as `a::b::name`), when the truth's start
column lies inside lingo's range on that line. Each lingo reference matches
at most one truth reference and vice versa.

Columns: "certain" = lingo references whose resolution is not name_only.
"certain misses" = truth references lingo did not return as certain; each
was returned as a name_only guess, listed in completeness.possibly_missed_sites
(at most 10 are listed per answer), only counted (completeness.complete is
false) or silent (the answer claimed to be complete).

    report.py results/rust.json [results/go.json ...]           # the table
    report.py --worst 5 results/rust.json                       # + worst symbols
    report.py --markdown results/*.json                         # for BENCHMARKS.md
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def match(truth: list[dict], found: list[dict]) -> tuple[list[int], list[int], str]:
    """Indices of matched truth references, of matched lingo references, in
    pairs (truth[i] <-> found[j]); exact start matches are taken first."""
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


def symbol_stats(s: dict) -> dict:
    truth = s["truth"]
    lingo = s["lingo"]["references"]
    certain = [r for r in lingo if r["resolution"] != "name_only"]
    pairs_all = match(truth, lingo)
    pairs_certain = match(truth, certain)
    missed_all = [t for i, t in enumerate(truth) if i not in pairs_all]
    matched_lingo = set(pairs_all.values())
    extra_all = [r for j, r in enumerate(lingo) if j not in matched_lingo]
    completeness = s["lingo"]["completeness"] or {}
    shown = {
        (m["file_path"], m["range"]["start"]["line"])
        for m in completeness.get("possibly_missed_sites", []) or []
    }
    missed_certain = [t for i, t in enumerate(truth) if i not in pairs_certain]
    # How each truth reference lingo did not give as certain was reported:
    # as a name-only guess, among the possibly-missed sites (at most 10 are
    # listed), only counted (the answer said complete: false), or silently.
    matched_any = set(pairs_all)
    how = {"name_only": 0, "listed": 0, "counted": 0, "silent": 0}
    flagged = bool(completeness) and completeness.get("complete") is False
    for i, t in enumerate(truth):
        if i in pairs_certain:
            continue
        if i in matched_any:
            how["name_only"] += 1
        elif (t["file"], t["line"]) in shown:
            how["listed"] += 1
        elif flagged:
            how["counted"] += 1
        else:
            how["silent"] += 1
    flagged_listed = how["listed"]
    return {
        "truth": len(truth),
        "lingo": len(lingo),
        "certain": len(certain),
        "tp_all": len(pairs_all),
        "tp_certain": len(pairs_certain),
        "missed_all": missed_all,
        "extra_all": extra_all,
        "missed_certain": missed_certain,
        "flagged_incomplete": flagged,
        "how": how,
        "missed_listed": flagged_listed,
        "possibly_missed": completeness.get("possibly_missed", 0) or 0,
        "error": (s["lingo"]["error"] or {}).get("code") if s["lingo"]["error"] else None,
    }


def ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "n/a"


def summarize(record: dict) -> dict:
    stats = [symbol_stats(s) for s in record["symbols"]]
    t = {k: sum(x[k] for x in stats) for k in ("truth", "lingo", "certain", "tp_all", "tp_certain")}
    misses_certain = sum(len(x["missed_certain"]) for x in stats)
    with_misses = [x for x in stats if x["missed_certain"]]
    return {
        "language": record["language"],
        "project": record["project"],
        "tool": record["reference_tool"],
        "sample": len(stats),
        **t,
        "precision_certain": ratio(t["tp_certain"], t["certain"]),
        "recall_certain": ratio(t["tp_certain"], t["truth"]),
        "precision_all": ratio(t["tp_all"], t["lingo"]),
        "recall_all": ratio(t["tp_all"], t["truth"]),
        "misses_certain": misses_certain,
        "misses_all": sum(len(x["missed_all"]) for x in stats),
        "symbols_with_misses": len(with_misses),
        "symbols_with_misses_flagged": sum(1 for x in with_misses if x["flagged_incomplete"]),
        "misses_listed": sum(x["missed_listed"] for x in stats),
        "how": {k: sum(x["how"][k] for x in stats) for k in ("name_only", "listed", "counted", "silent")},
        "excluded_decl": sum(1 for r in record["symbols"] for t in r.get("excluded", []) if t["why"] == "declaration"),
        "excluded_comment": sum(1 for r in record["symbols"] for t in r.get("excluded", []) if t["why"] == "comment"),
        "from_definition": sum(1 for r in record["symbols"] for t in r["truth"] if t.get("source") == "definition"),
        "errors": sum(1 for x in stats if x["error"]),
        "stats": stats,
    }


def print_table(summaries: list[dict], markdown: bool) -> None:
    head = ["language", "project", "sample", "truth refs", "lingo refs (certain/all)",
            "precision certain", "recall certain", "precision all", "recall all",
            "symbols with certain misses (flagged incomplete)",
            "certain misses: name_only / listed / counted / silent"]
    rows = []
    for s in summaries:
        rows.append([
            s["language"], s["project"], str(s["sample"]), str(s["truth"]),
            f"{s['certain']}/{s['lingo']}",
            s["precision_certain"], s["recall_certain"], s["precision_all"], s["recall_all"],
            f"{s['symbols_with_misses']} ({s['symbols_with_misses_flagged']})",
            "{name_only} / {listed} / {counted} / {silent}".format(**s["how"]),
        ])
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" for _ in head) + "|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
        print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
        for r in rows:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)))


GROUPS = {"struct": "types", "class": "types", "enum": "types", "interface": "types",
          "function": "functions", "method": "methods"}


def print_by_kind(records: list[dict], summaries: list[dict], markdown: bool) -> None:
    """Precision and recall per kind of declaration (types, functions, methods)."""
    head = ["language", "kind", "symbols", "truth refs", "precision certain", "recall certain",
            "precision all", "recall all"]
    rows = []
    for record, summary in zip(records, summaries):
        for group in ("types", "functions", "methods"):
            st = [x for sym, x in zip(record["symbols"], summary["stats"]) if GROUPS[sym["kind"]] == group]
            if not st:
                continue
            t = {k: sum(x[k] for x in st) for k in ("truth", "lingo", "certain", "tp_all", "tp_certain")}
            rows.append([record["language"], group, str(len(st)), str(t["truth"]),
                         ratio(t["tp_certain"], t["certain"]), ratio(t["tp_certain"], t["truth"]),
                         ratio(t["tp_all"], t["lingo"]), ratio(t["tp_all"], t["truth"])])
    print()
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" for _ in head) + "|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
        print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
        for r in rows:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)))


def print_worst(record: dict, summary: dict, n: int) -> None:
    ranked = sorted(
        zip(record["symbols"], summary["stats"]),
        key=lambda p: (-(len(p[1]["missed_all"]) + len(p[1]["extra_all"])), p[0]["file"], p[0]["line"]),
    )
    print(f"\nworst {n} ({record['language']}): misses + false positives, all of lingo's references")
    for s, x in ranked[:n]:
        print(f"- {s['kind']} {s['name']} ({s['file']}:{s['line'] + 1}): truth {x['truth']}, "
              f"lingo {x['lingo']} ({x['certain']} certain), missed {len(x['missed_all'])}, "
              f"extra {len(x['extra_all'])}, error {x['error']}, "
              f"possibly_missed {x['possibly_missed']}")
        root = Path(record["root"])
        for t in x["missed_all"][:4]:
            line = _line(root, t)
            print(f"    missed {t['file']}:{t['line'] + 1}:{t['character'] + 1}  {line}")
        for r in x["extra_all"][:3]:
            print(f"    extra  {r['file']}:{r['line'] + 1}:{r['character'] + 1} [{r['resolution']}]  {r.get('line_text')}")


def _line(root: Path, t: dict) -> str:
    try:
        return (root / t["file"]).read_text(errors="replace").split("\n")[t["line"]].strip()[:100]
    except (OSError, IndexError):
        return ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="+", type=Path)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--worst", type=int, default=0)
    args = ap.parse_args()
    records = [json.loads(p.read_text()) for p in args.results]
    summaries = [summarize(r) for r in records]
    print_table(summaries, args.markdown)
    print_by_kind(records, summaries, args.markdown)
    print()
    for r, s in zip(records, summaries):
        print(f"{r['language']}: truth = {s['truth'] - s['from_definition']} from the tool's references"
              f" + {s['from_definition']} lingo sites its go-to-definition confirmed;"
              f" excluded: {s['excluded_decl']} other declarations (overrides, implementations),"
              f" {s['excluded_comment']} in comments;"
              f" {r['candidates']} candidate declarations, {r['skipped_unreferenced']} skipped (no references)")
    for r, s in zip(records, summaries):
        if s["errors"]:
            print(f"\n{r['language']}: {s['errors']} symbols where lingo answered an error")
    if args.worst:
        for r, s in zip(records, summaries):
            print_worst(r, s, args.worst)


if __name__ == "__main__":
    main()
