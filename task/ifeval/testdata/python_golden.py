"""Writes python_golden.jsonl: verdicts of IFEval's strict-mode checks, as
google-research instruction_following_eval/instructions.py computes them with
Python's re, on random responses built from tricky fragments. Only the ids
whose checks need no NLTK or langdetect are covered. The checks below restate
IFEval's check_following logic (Apache-2.0). Run: python3 python_golden.py
"""
import collections, json, random, re

def two_responses(v, kw):
    valid = []
    rs = v.split("******")
    for i, r in enumerate(rs):
        if not r.strip():
            if i != 0 and i != len(rs) - 1:
                return False
        else:
            valid.append(r)
    return len(valid) == 2 and valid[0].strip() != valid[1].strip()

def repeat_prompt(v, kw):
    return v.strip().lower().startswith(kw["prompt_to_repeat"].strip().lower())

def placeholders(v, kw):
    return len(re.findall(r"\[.*?\]", v)) >= kw["num_placeholders"]

def postscript(v, kw):
    v = v.lower()
    m = kw["postscript_marker"]
    if m == "P.P.S":
        p = r"\s*p\.\s?p\.\s?s.*$"
    elif m == "P.S.":
        p = r"\s*p\.\s?s\..*$"
    return bool(re.findall(p, v, flags=re.MULTILINE))

def constrained(v, kw):
    v = v.strip()
    return any(o in v for o in ("My answer is yes.", "My answer is no.", "My answer is maybe."))

def json_format(v, kw):
    v = (v.strip().removeprefix("```json").removeprefix("```Json").removeprefix("```JSON")
         .removeprefix("```").removesuffix("```").strip())
    try:
        json.loads(v)
    except ValueError:
        return False
    return True

def sections(v, kw):
    p = r"\s?" + kw["section_spliter"] + r"\s?\d+\s?"
    return len(re.split(p, v)) - 1 >= kw["num_sections"]

def bullets(v, kw):
    a = re.findall(r"^\s*\*[^\*].*$", v, flags=re.MULTILINE)
    b = re.findall(r"^\s*-.*$", v, flags=re.MULTILINE)
    return len(a) + len(b) == kw["num_bullets"]

def highlights(v, kw):
    n = 0
    for h in re.findall(r"\*[^\n\*]*\*", v):
        if h.strip("*").strip():
            n += 1
    for h in re.findall(r"\*\*[^\n\*]*\*\*", v):
        if h.removeprefix("**").removesuffix("**").strip():
            n += 1
    return n >= kw["num_highlights"]

def title(v, kw):
    return any(t.lstrip("<").rstrip(">").strip() for t in re.findall(r"<<[^\n]+>>", v))

def existence(v, kw):
    return all(re.search(k, v, flags=re.IGNORECASE) for k in kw["keywords"])

def forbidden(v, kw):
    return not any(re.search(r"\b" + w + r"\b", v, flags=re.IGNORECASE) for w in kw["forbidden_words"])

def rel(n, r, t):
    return n < t if r == "less than" else n >= t

def frequency(v, kw):
    return rel(len(re.findall(kw["keyword"], v, flags=re.IGNORECASE)), kw["relation"], kw["frequency"])

def letter_frequency(v, kw):
    return rel(collections.Counter(v.lower())[kw["letter"].lower()], kw["let_relation"], kw["let_frequency"])

def nth_paragraph(v, kw):
    ps = re.split(r"\n\n", v)
    n = len(ps)
    for p in ps:
        if not p.strip():
            n -= 1
    nth = kw["nth_paragraph"]
    if nth <= n:
        p = ps[nth - 1].strip()
        if not p:
            return False
    else:
        return False
    first = ""
    word = p.split()[0].strip().lstrip("'").lstrip('"')
    for ch in word:
        if ch in {".", ",", "?", "!", "'", '"'}:
            break
        first += ch.lower()
    return n == kw["num_paragraphs"] and first == kw["first_word"].lower()

def paragraphs(v, kw):
    ps = re.split(r"\s?\*\*\*\s?", v)
    n = len(ps)
    for i, p in enumerate(ps):
        if not p.strip():
            if i == 0 or i == len(ps) - 1:
                n -= 1
            else:
                return False
    return n == kw["num_paragraphs"]

def words(v, kw):
    return rel(len(re.findall(r"\w+", v)), kw["relation"], kw["num_words"])

def no_comma(v, kw):
    return not re.search(r"\,", v)

def end_checker(v, kw):
    return v.strip().strip('"').lower().endswith(kw["end_phrase"].strip().lower())

def quotation(v, kw):
    v = v.strip()
    return len(v) > 1 and v[0] == '"' and v[-1] == '"'

CHECKS = [
    ("combination:two_responses", {}, two_responses),
    ("combination:repeat_prompt", {"prompt_to_repeat": "Write a poem"}, repeat_prompt),
    ("detectable_content:number_placeholders", {"num_placeholders": 1}, placeholders),
    ("detectable_content:number_placeholders", {"num_placeholders": 2}, placeholders),
    ("detectable_content:postscript", {"postscript_marker": "P.S."}, postscript),
    ("detectable_content:postscript", {"postscript_marker": "P.P.S"}, postscript),
    ("detectable_format:constrained_response", {}, constrained),
    ("detectable_format:json_format", {}, json_format),
    ("detectable_format:multiple_sections", {"section_spliter": "Section", "num_sections": 1}, sections),
    ("detectable_format:multiple_sections", {"section_spliter": "SECTION", "num_sections": 2}, sections),
    ("detectable_format:number_bullet_lists", {"num_bullets": 1}, bullets),
    ("detectable_format:number_bullet_lists", {"num_bullets": 2}, bullets),
    ("detectable_format:number_highlighted_sections", {"num_highlights": 1}, highlights),
    ("detectable_format:number_highlighted_sections", {"num_highlights": 2}, highlights),
    ("detectable_format:title", {}, title),
    ("keywords:existence", {"keywords": ["sea", "word"]}, existence),
    ("keywords:forbidden_words", {"forbidden_words": ["run", "sea"]}, forbidden),
    ("keywords:frequency", {"keyword": "word", "relation": "at least", "frequency": 2}, frequency),
    ("keywords:frequency", {"keyword": "the", "relation": "less than", "frequency": 2}, frequency),
    ("keywords:letter_frequency", {"letter": "q", "let_relation": "at least", "let_frequency": 2}, letter_frequency),
    ("keywords:letter_frequency", {"letter": "!", "let_relation": "less than", "let_frequency": 1}, letter_frequency),
    ("length_constraints:nth_paragraph_first_word", {"num_paragraphs": 2, "nth_paragraph": 2, "first_word": "elm"}, nth_paragraph),
    ("length_constraints:nth_paragraph_first_word", {"num_paragraphs": 1, "nth_paragraph": 1, "first_word": "word"}, nth_paragraph),
    ("length_constraints:number_paragraphs", {"num_paragraphs": 1}, paragraphs),
    ("length_constraints:number_paragraphs", {"num_paragraphs": 2}, paragraphs),
    ("length_constraints:number_words", {"relation": "at least", "num_words": 3}, words),
    ("length_constraints:number_words", {"relation": "less than", "num_words": 2}, words),
    ("punctuation:no_comma", {}, no_comma),
    ("startend:end_checker", {"end_phrase": "Bye."}, end_checker),
    ("startend:end_checker", {"end_phrase": "Is there anything else I can help with?"}, end_checker),
    ("startend:quotation", {}, quotation),
]

FRAGMENTS = [
    "*", "**", "***", "******", "-", "---", "\n", "\n\n", " ", "  ", "\t", "\u00a0", "\u2003", "\x1c", "\x0b",
    "[", "]", "[x]", "<<", ">>", "<", ">", "<<T>>", "P.S.", "p. s.", "P.P.S", "p.p.s", "p. p. s", "P.S",
    "Section 1", "SECTION 2", "Section", "1", "\u0663", "Section\u00a0\u0664", ",", "\uff0c", '"', "'", "```json", "```",
    "{", "}", "[1,2]", '"a"', ":", "true", "null", "word", "Word", "WORD", "words", "sea", "SEA", "seashell",
    "the", "The", "then", "cat", "Elm", "elm,", '"elm', "'elm", "My answer is yes.", "My answer is no", "Bye.", "bye",
    "Is there anything else I can help with?", "\u017f", "\u212a", "\u0130", "\u00e9", "_", "run", "RUN", "run_x",
    "q", "Q", "!", "Write a poem", "write A POEM", "\u00bd", "x2", "\U0001F600",
]

def main():
    # Per check, 25 responses it accepts and 25 it rejects, when found.
    rng = random.Random(20240611)
    out = []
    for cid, kw, f in CHECKS:
        got = {True: 0, False: 0}
        for _ in range(50000):
            if got[True] >= 25 and got[False] >= 25:
                break
            resp = "".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(0, 12)))
            ok = bool(resp.strip()) and bool(f(resp, kw))
            if got[ok] >= 25:
                continue
            got[ok] += 1
            out.append({"id": cid, "kwargs": kw, "response": resp, "ok": ok})
    with open("python_golden.jsonl", "w") as w:
        for o in out:
            w.write(json.dumps(o) + "\n")

main()
