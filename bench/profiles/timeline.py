#!/usr/bin/env python3
"""perf script | timeline.py COMM BUCKET_MS: per time bucket, how many
samples threads named COMM took and their top frames (the innermost
`lingo::` frame, else the leaf)."""
import collections
import sys

from stacks import samples

comm, bucket = sys.argv[1], float(sys.argv[2]) / 1000
start, buckets = None, collections.defaultdict(collections.Counter)
for name, time, frames in samples(sys.stdin):
    start = time if start is None else start
    if name == comm:
        frame = next((f for f in frames if "lingo::" in f), frames[0])
        buckets[int((time - start) / bucket)][frame[:100]] += 1
for number in sorted(buckets):
    counts = buckets[number]
    tops = ", ".join(f"{n}×{frame}" for frame, n in counts.most_common(3))
    print(f"{number * bucket * 1000:6.0f} ms {sum(counts.values()):4d}  {tops}")
