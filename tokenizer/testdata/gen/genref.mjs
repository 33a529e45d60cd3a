// Writes testdata/reference.json: encodings by @huggingface/tokenizers (tokenizers.js),
// an implementation independent of this package, of the same tokenizer files.
import { Tokenizer } from "@huggingface/tokenizers";
import fs from "fs";
import crypto from "crypto";
const load = (dir) => {
  const tj = JSON.parse(fs.readFileSync(dir + "/tokenizer.json", "utf8"));
  const p = dir + "/tokenizer_config.json";
  return new Tokenizer(tj, fs.existsSync(p) ? JSON.parse(fs.readFileSync(p, "utf8")) : {});
};
const inputs = [
  "Hello world!", "", " ", "  ", "\n", "a\r\nb", " \n \n", "x  \n  y", "tabs\t\there", "end   ", "   start",
  "I'm sure you're right, but WE'LL see; it's O'Neil's 'sorry' and I'D've",
  "12345 3.14159 1,000,000 ٣٤٥ ½ Ⅻ 2024-11-30",
  "café naïve 日本語のテキスト Привет, мир! مرحبا हिन्दी ภาษาไทย",
  "👍🏽 family: 👨‍👩‍👧 ok",
  "cafe\u0301 A\u030A \u1100\u1161 \u212B \u0041\u0301\u0302 e\u0301e\u0301",
  "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n",
  "<think>\nreason\n</think>\n\n<answer>42</answer>",
  "<tool_call>{\"name\": \"f\", \"arguments\": {\"x\": 1}}</tool_call>",
  "<|im_end|><|im_end|> <<think>> <thin </think",
  "a\u00a0b a\u3000b x\u2028y",
  "def f(x):\n    return x**2  # square\n\nprint(f(3))\n",
  "if (a && b) { c++; } else { d--; }",
  "!!!???... ---> ...\n\n",
  "Hello\u0000world\u007f\u0001 end",
  "    \n\n\n    \t\n x",
  "Janet’s ducks lay 16 eggs per day. She eats three for breakfast every morning and bakes muffins for her friends every day with four.",
];
const out = {};
// Usage: node genref.mjs SHARED_DATA_DIR TINY_DIR OUT.json
const [data, tinyDir, outFile] = process.argv.slice(2);
for (const [name, dir] of [["qwen3", data + "/tokenizers/qwen3"], ["tiny", tinyDir]]) {
  const tok = load(dir);
  out[name] = inputs.map(s => ({text: s, ids: tok.encode(s, {add_special_tokens: false}).ids}));
}
const digest = (tok, file, field) => {
  const lines = fs.readFileSync(file, "utf8").split("\n").filter(l => l.trim() !== "");
  const h = crypto.createHash("sha256");
  let n = 0;
  for (const l of lines) {
    const s = JSON.parse(l)[field];
    h.update(tok.encode(s, {add_special_tokens: false}).ids.join(",") + "\n");
    n++;
  }
  return {records: n, sha256: h.digest("hex")};
};
const q = load(data + "/tokenizers/qwen3");
out.qwen3_gsm8k = digest(q, data + "/gsm8k/test.jsonl", "question");
out.qwen3_ifeval = digest(q, data + "/ifeval/input_data.jsonl", "prompt");
const lines = ["{"];
const keys = Object.keys(out);
keys.forEach((k, ki) => {
  const v = out[k];
  const end = ki + 1 < keys.length ? "," : "";
  if (Array.isArray(v)) {
    lines.push(` ${JSON.stringify(k)}: [`);
    v.forEach((e, i) => lines.push(`  ${JSON.stringify(e)}${i + 1 < v.length ? "," : ""}`));
    lines.push(` ]${end}`);
  } else lines.push(` ${JSON.stringify(k)}: ${JSON.stringify(v)}${end}`);
});
lines.push("}");
fs.writeFileSync(outFile, lines.join("\n") + "\n");
