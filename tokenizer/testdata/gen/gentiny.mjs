// Writes testdata/tiny/tokenizer.json: a byte-level BPE with Qwen's pre-tokenizer,
// NFC and 300 merges learned (greedily, most frequent pair first) from the text below.
// Usage: node gentiny.mjs OUT.json
import fs from "fs";
// GPT-2 byte-level alphabet.
const bs = [];
for (let b = 33; b <= 126; b++) bs.push(b);
for (let b = 161; b <= 172; b++) bs.push(b);
for (let b = 174; b <= 255; b++) bs.push(b);
const cs = bs.slice();
let n = 0;
for (let b = 0; b < 256; b++) if (!bs.includes(b)) { bs.push(b); cs.push(256 + n); n++; }
const b2u = {};
bs.forEach((b, i) => b2u[b] = String.fromCodePoint(cs[i]));
const corpus = `Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May.
How many clips did Natalia sell altogether in April and May? Let's think step by step.
The answer is 72. She doesn't know; they're sure we'll see what you've done, I'm told he'd go.
Weng earns $12 an hour for babysitting. Yesterday, she just did 50 minutes of babysitting. How much did she earn?
<think>First compute the total, then the answer.</think> <answer>10</answer>
The function returns the value of the parameter: print("hello world") and return x + y * 2.
   Indented   text with    spaces and tabs\t\tand newlines\n\n\nend.
Café naïve résumé: the über-cool façade of the théâtre. Ünïcödé 世界 你好 こんにちは мир привет.
`.repeat(3);
const re = /(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;
const enc = new TextEncoder();
const words = new Map();
for (const m of corpus.matchAll(re)) {
  const w = Array.from(enc.encode(m[0]), b => b2u[b]);
  const k = w.join("\u0000");
  words.set(k, (words.get(k) || 0) + 1);
}
let ws = [...words].map(([k, c]) => [k.split("\u0000"), c]);
const vocab = {};
bs.forEach((b, i) => vocab[b2u[bs[i]]] = i); // ids in alphabet order, as GPT-2/Qwen
let id = 256;
const merges = [];
for (let step = 0; step < 300; step++) {
  const cnt = new Map();
  for (const [w, c] of ws) for (let i = 0; i + 1 < w.length; i++) {
    const k = w[i] + " " + w[i + 1];
    cnt.set(k, (cnt.get(k) || 0) + c);
  }
  let best = null, bc = 1;
  for (const [k, c] of cnt) if (c > bc || (c === bc && best !== null && k < best)) { best = k; bc = c; }
  if (best === null) break;
  const [a, b] = best.split(" ");
  merges.push([a, b]);
  if (!(a + b in vocab)) vocab[a + b] = id++;
  ws = ws.map(([w, c]) => {
    const o = [];
    for (let i = 0; i < w.length; i++) {
      if (i + 1 < w.length && w[i] === a && w[i + 1] === b) { o.push(a + b); i++; } else o.push(w[i]);
    }
    return [o, c];
  });
}
const added = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>", "<answer>", "</answer>"]
  .map((c, i) => ({id: id + i, content: c, single_word: false, lstrip: false, rstrip: false, normalized: false, special: i < 3}));
const pattern = "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const tj = {
  version: "1.0", truncation: null, padding: null, added_tokens: added,
  normalizer: {type: "NFC"},
  pre_tokenizer: {type: "Sequence", pretokenizers: [
    {type: "Split", pattern: {Regex: pattern}, behavior: "Isolated", invert: false},
    {type: "ByteLevel", add_prefix_space: false, trim_offsets: false, use_regex: false}]},
  post_processor: {type: "ByteLevel", add_prefix_space: false, trim_offsets: false, use_regex: false},
  decoder: {type: "ByteLevel", add_prefix_space: false, trim_offsets: false, use_regex: false},
  model: {type: "BPE", dropout: null, unk_token: null, continuing_subword_prefix: "", end_of_word_suffix: "",
    fuse_unk: false, byte_fallback: false, ignore_merges: false, vocab, merges},
};
fs.writeFileSync(process.argv[2], JSON.stringify(tj, null, 1) + "\n");
console.log("vocab", Object.keys(vocab).length, "merges", merges.length);
