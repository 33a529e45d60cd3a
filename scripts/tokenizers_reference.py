"""Writes tokenizer/testdata/tokenizers_qwen3.json: the Qwen3 tokenizer's
encoding of a corpus by Hugging Face's own `tokenizers` (the Rust library
transformers uses), which tokenizer's TestTokenizersCorpus compares with
credo's record by record.

The corpus is real benchmark text read from ../shared/data (never copied
into the repository): every IFEval prompt (plain and in the ChatML turn
Qwen3's template renders, special tokens included), every GSM8K test
question and answer, and BFCL's questions, whole question records (JSON
with function schemas) and ground-truth records (JSON, wrapped in the
non-special <tool_call> tokens). Its full ids are megabytes, so the fixture keeps, for
each record, its token count and the first 16 hex digits of the SHA-256 of
its ids (decimal, joined by ",", then "\\n": tokenizer's idsDigest of one
record), plus the full ids of each source's first records, so a difference
there shows where it starts.

Run with the pinned environment (make fixtures does) and commit the output:

    "$(scripts/python/venv.sh client)/bin/python" scripts/tokenizers_reference.py ../shared/data tokenizer/testdata/tokenizers_qwen3.json
"""
import hashlib
import json
import sys

import tokenizers
from tokenizers import Tokenizer

TOKENIZER = "tokenizers/qwen3/tokenizer.json"
SAMPLE = 3  # records per source whose full ids are kept

# Qwen3's chat template with enable_thinking=False, around {text}.
CHATML = "<|im_start|>user\n{text}<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"
TOOLCALL = "<tool_call>\n{text}\n</tool_call>"

# (file under the shared data, field, template). The field is a path into
# each JSON Lines record ("question.0.0.content": key, index, index, key),
# or "" for the whole line without its newline.
SOURCES = [
    ("ifeval/input_data.jsonl", "prompt", ""),
    ("ifeval/input_data.jsonl", "prompt", CHATML),
    ("gsm8k/test.jsonl", "question", ""),
    ("gsm8k/test.jsonl", "answer", ""),
    ("bfcl/BFCL_v4_simple_python.json", "question.0.0.content", ""),
    ("bfcl/BFCL_v4_simple_python.json", "", ""),
    ("bfcl/BFCL_v4_multiple.json", "question.0.0.content", ""),
    ("bfcl/BFCL_v4_multiple.json", "", ""),
    ("bfcl/possible_answer/BFCL_v4_simple_python.json", "", TOOLCALL),
    ("bfcl/possible_answer/BFCL_v4_multiple.json", "", TOOLCALL),
]


def field(rec, path):
    """The string at path in rec; a non-string value is an error (the Go
    test could not write it identically)."""
    v = rec
    for k in path.split("."):
        v = v[int(k)] if isinstance(v, list) else v[k]
    if not isinstance(v, str):
        raise ValueError(f"{path} is {type(v).__name__}, not a string")
    return v


def texts(data, file, path, template):
    with open(f"{data}/{file}", encoding="utf-8", newline="") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = [line if not path else field(json.loads(line), path) for line in lines]
    return [template.replace("{text}", t) if template else t for t in out]


def digest(ids):
    return hashlib.sha256((",".join(map(str, ids)) + "\n").encode()).hexdigest()[:16]


def main(data, out):
    path = f"{data}/{TOKENIZER}"
    with open(path, "rb") as f:
        sha = hashlib.sha256(f.read()).hexdigest()
    tok = Tokenizer.from_file(path)
    sources, total = [], 0
    for file, fld, template in SOURCES:
        encs = [tok.encode(t, add_special_tokens=False).ids for t in texts(data, file, fld, template)]
        sources.append({"file": file, "field": fld, "template": template, "records": len(encs),
                        "counts": [len(e) for e in encs], "digests": [digest(e) for e in encs],
                        "sample": encs[:SAMPLE]})
        total += len(encs)
        print(f"{file} {fld or '(line)'}{' templated' if template else ''}: {len(encs)} records, "
              f"{sum(len(e) for e in encs)} tokens")
    doc = {"about": "Qwen3 ids by tokenizers.Tokenizer.from_file(...).encode(text, add_special_tokens=False); "
                    "written by scripts/tokenizers_reference.py",
           "tokenizers_version": tokenizers.__version__, "tokenizer": TOKENIZER, "tokenizer_sha256": sha,
           "digest": "first 16 hex digits of SHA-256 of the ids in decimal joined by ',' then '\\n'",
           "sources": sources}
    with open(out, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {out}: {total} records")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/data",
         sys.argv[2] if len(sys.argv) > 2 else "tokenizer/testdata/tokenizers_qwen3.json")
