"""Checks the generated op reference: every op has a summary naming MLX."""
import re
import sys

text = open(sys.argv[1]).read()
ops = re.findall(r"^### `(mlx\.[a-z0-9_]+)` \(.*?\)\n\n_(.*)_$", text, re.M)
if not ops:
    sys.exit("no ops found in the op reference")
bad = [name for name, summary in ops if "MLX" not in summary]
if bad:
    sys.exit("ops without an MLX counterpart in their summary: " + ", ".join(bad))
print(f"{len(ops)} ops documented")
