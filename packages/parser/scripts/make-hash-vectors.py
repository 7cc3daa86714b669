#!/usr/bin/env python3
"""Writes src/__fixtures__/python-hash-vectors.json: texts and the content hash the original
tools (Python) give them. Run by hand when the vectors change; the tests never need Python."""
import hashlib, json, random, pathlib

random.seed(20261122)
WHITESPACE = ["\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", " ", "\x85", "\xa0",
              "\u1680", "\u2000", "\u2005", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000"]
NOT_WHITESPACE = ["\ufeff", "\u200b", "\u180e", "\u2060"]
LETTERS = list("abcXYZ019.,;:-_#`*") + ["É", "Ä", "ß", "ẞ", "Σ", "ς", "Ω", "Ж", "Ǆ", "ǅ", "Ⅻ", "Ａ", "😀", "中", "ﬁ", "ŉ", "İ"]

def digest(text):
    return hashlib.sha256(" ".join(text.lower().strip().split()).encode()).hexdigest()[:16]

texts = ["", " ", "a", "A b", "  Keep SKILL.md   thin. ",
         "Breaking a single file modification into many small separate tasks."]
texts += [c for c in WHITESPACE + NOT_WHITESPACE]
texts += ["x" + c + "y" for c in WHITESPACE + NOT_WHITESPACE]
for _ in range(240):
    parts = [random.choice(LETTERS + WHITESPACE + NOT_WHITESPACE) for _ in range(random.randint(1, 24))]
    texts.append("".join(parts))

vectors = [{"text": t, "hash": digest(t)} for t in texts]
out = pathlib.Path(__file__).resolve().parent.parent / "src" / "__fixtures__" / "python-hash-vectors.json"
out.write_text(json.dumps(vectors, ensure_ascii=True, indent=1) + "\n")
print(f"{len(vectors)} vectors -> {out}")
