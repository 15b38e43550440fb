#!/usr/bin/env python3
"""perf script | under.py PATTERN [N]: the share of samples with a frame
matching PATTERN, then their top N leaves and the frame's top N callees."""
import collections
import re
import sys

from stacks import samples, short

pattern = re.compile(sys.argv[1])
top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
total, leaves, callees = 0, collections.Counter(), collections.Counter()
for _, _, frames in samples(sys.stdin):
    total += 1
    for depth, frame in enumerate(frames):
        if pattern.search(frame):
            leaves[frames[0]] += 1
            callees[frames[depth - 1] if depth > 0 else "(self)"] += 1
            break
hits = sum(leaves.values())
print(f"{hits}/{total} samples = {100 * hits / max(total, 1):.1f}%")
for title, counts in (("leaves", leaves), ("callees", callees)):
    print(f"-- {title}")
    for frame, count in counts.most_common(top):
        print(f"{100 * count / total:5.1f}% {short(frame)}")
