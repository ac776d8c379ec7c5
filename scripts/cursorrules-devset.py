#!/usr/bin/env python3
"""Build the retrieval development set the fused-score weights were chosen on.

From ../shared/eval/lessons/cursorrules.jsonl (real rule files for coding
agents): each file's description (its trigger without the "(files: ...)"
globs) is a query whose one relevant lesson is the file's content. Files
without a description are left out; the few without content are refused by
the import, as they would be in use.

    python3 scripts/cursorrules-devset.py ../shared/eval/lessons/cursorrules.jsonl /tmp/dev
    innate-mcp eval retrieval --corpus /tmp/dev/cr-corpus.jsonl --queries /tmp/dev/cr-queries.jsonl --channels
"""
import json
import os
import sys


def main(src, out):
    os.makedirs(out, exist_ok=True)
    n = 0
    with open(src) as f, open(os.path.join(out, "cr-corpus.jsonl"), "w") as corpus, \
            open(os.path.join(out, "cr-queries.jsonl"), "w") as queries:
        for line in f:
            r = json.loads(line)
            query = (r.get("trigger") or "").split(" (files:")[0].strip()
            if not query:
                continue
            corpus.write(json.dumps({"id": r["id"], "content": r["content"]}) + "\n")
            queries.write(json.dumps({"query": query, "relevant_ids": [r["id"]]}) + "\n")
            n += 1
    print(f"{n} queries and lessons in {out}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: cursorrules-devset.py CURSORRULES.jsonl OUTDIR")
    main(sys.argv[1], sys.argv[2])
