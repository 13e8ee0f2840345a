// The live cross-check against a real ClickHouse (chdb): writes parts over
// random data, asks ClickHouse's SQL hash functions about thousands of
// inputs, and records which granules ClickHouse's index analysis keeps for
// hundreds of random conditions. live_test.go then compares all of it with
// this package. Usage:
//   CHDB_DIR=$HOME/.cache/filterengine/chdb node live.js OUTDIR [SEED]
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { loadChdb, rng, rows, makeTable, INDEXES, token } = require("../testdata/chlib.js");

const out = process.argv[2];
if (!out) throw new Error("usage: node live.js OUTDIR [SEED]");
const seed = Number(process.argv[3] || Date.now() % 1000000007);
const r = rng(seed);
fs.mkdirSync(out, { recursive: true });

const { Session } = loadChdb();
const work = fs.mkdtempSync(path.join(os.tmpdir(), "ch-live-"));
const session = new Session(path.join(work, "db"));
const version = session.query("SELECT version()", "TSV").trim();
const q = (sql) => session.query(sql, "JSONCompact");
const hex = (b) => "unhex('" + b.toString("hex") + "')";

// 1. Hash functions: every length 0-300, random bytes, ten inputs each.
const strs = [];
for (let len = 0; len <= 300; len++)
  for (let j = 0; j < 10; j++) strs.push(Buffer.from(Array.from({ length: len }, () => r.int(256))).toString("hex"));
fs.writeFileSync(path.join(work, "h.jsonl"), strs.map((h) => JSON.stringify({ h })).join("\n") + "\n");
const cityRows = JSON.parse(q(`SELECT h, toString(cityHash64(unhex(h))) FROM file('${path.join(work, "h.jsonl")}', 'JSONEachRow', 'h String')`)).data;
const ints = Array.from({ length: 3000 }, (_, i) => (i < 300 ? BigInt(i) : r.u64()).toString());
fs.writeFileSync(path.join(work, "i.jsonl"), ints.map((x) => JSON.stringify({ x })).join("\n") + "\n");
const intRows = JSON.parse(q(`SELECT x, toString(intHash64(toUInt64(x))) FROM file('${path.join(work, "i.jsonl")}', 'JSONEachRow', 'x String')`)).data;

// 2. Parts over random data.
const tables = [
  { name: "live_lz4", n: 3000 + r.int(1000), granule: 64 + r.int(64), codec: "" },
  { name: "live_zstd", n: 2000 + r.int(1000), granule: 32 + r.int(64), codec: "ZSTD(1)" },
];
const vocab = Array.from({ length: 200 }, () => token(r));
const manifest = { clickhouse: version, seed, indexes: INDEXES, tables: [], city: cityRows, inthash: intRows, queries: [] };
const data = {};
for (const t of tables) {
  const d = rows(r, t.n, { emptyArraysFrom: t.granule, emptyArraysTo: 2 * t.granule });
  data[t.name] = d;
  const part = makeTable(session, work, t.name, d, t.granule, t.codec);
  fs.mkdirSync(path.join(out, t.name), { recursive: true });
  for (const x of INDEXES) fs.copyFileSync(path.join(part, `skp_idx_${x.name}.idx`), path.join(out, t.name, `skp_idx_${x.name}.idx`));
  fs.writeFileSync(path.join(out, t.name, "rows.json"), JSON.stringify(d));
  manifest.tables.push({ name: t.name, rows: t.n, granule: t.granule, codec: t.codec || "LZ4" });
}

// 3. Conditions: which granules does each index alone keep?
const allNames = INDEXES.map((x) => x.name);
function kept(table, index, cond) {
  const ignore = allNames.filter((n) => n !== index).join(",");
  const res = JSON.parse(q(`SELECT DISTINCT _part_granule_offset FROM ${table} WHERE indexHint(${cond}) ORDER BY 1
    SETTINGS ignore_data_skipping_indices = '${ignore}', optimize_empty_string_comparisons = 0, use_query_condition_cache = 0`)).data;
  return res.map((x) => Number(x[0]));
}
const pickRow = (t) => data[t.name][r.int(data[t.name].length)];
function stringValue(t) {
  const c = r.int(4);
  if (c === 0) return Buffer.from(pickRow(t).s, "hex"); // a whole value present
  if (c === 1) return r.pick(vocab);
  if (c === 2) return token(r); // most likely absent
  return Buffer.from(pickRow(t).s, "hex").subarray(0, r.int(12));
}
function tokenValue(t) {
  const c = r.int(3);
  if (c === 0) {
    const s = Buffer.from(pickRow(t).s, "hex");
    const toks = [];
    let cur = [];
    for (const b of s) {
      const sep = b < 0x80 && !/[0-9A-Za-z]/.test(String.fromCharCode(b));
      if (sep) { if (cur.length) toks.push(Buffer.from(cur)); cur = []; } else cur.push(b);
    }
    if (cur.length) toks.push(Buffer.from(cur));
    if (toks.length) return r.pick(toks);
  }
  return c === 1 ? r.pick(vocab) : token(r);
}
const nQueries = Number(process.env.LIVE_QUERIES || 300);
for (let i = 0; i < nQueries; i++) {
  const t = r.pick(tables);
  const kind = r.pick(["hasToken", "eq_s", "in_s", "has_a", "eq_u", "in_u", "eq_i", "eq_f32", "eq_f64"]);
  let values, cond, idxs;
  switch (kind) {
    case "hasToken": values = [tokenValue(t)]; cond = `hasToken(s, ${hex(values[0])})`; idxs = ["tok", "tok2", "ng3", "ng4"]; break;
    case "eq_s": values = [stringValue(t)]; cond = `s = ${hex(values[0])}`; idxs = ["tok", "tok2", "ng3", "ng4", "bf_s", "bf_multi"]; break;
    case "in_s": values = [stringValue(t), stringValue(t), stringValue(t)]; cond = `s IN (${values.map(hex).join(", ")})`; idxs = ["tok", "ng3", "bf_s"]; break;
    case "has_a": values = [r.int(2) ? stringValue(t) : (() => { const a = pickRow(t).a; return a.length ? Buffer.from(r.pick(a), "hex") : token(r); })()]; cond = `has(a, ${hex(values[0])})`; idxs = ["tok2", "ng1", "bf_a"]; break;
    case "eq_u": values = [r.int(2) ? pickRow(t).u : r.u64().toString()]; cond = `u = ${values[0]}`; idxs = ["bf_u", "bf_multi"]; break;
    case "in_u": values = [pickRow(t).u, r.u64().toString(), pickRow(t).u]; cond = `u IN (${values.join(", ")})`; idxs = ["bf_u"]; break;
    case "eq_i": values = [r.int(2) ? pickRow(t).i : String(r.int(2000) - 1000)]; cond = `i = ${values[0]}`; idxs = ["bf_i", "bf_multi"]; break;
    case "eq_f32": values = [r.int(2) ? pickRow(t).f32 : (r.u64() & 0x3fffffffn).toString()]; cond = `f32 = reinterpretAsFloat32(toUInt32(${values[0]}))`; idxs = ["bf_f32"]; break;
    case "eq_f64": values = [r.int(2) ? pickRow(t).f64 : (r.u64() & 0x3fffffffffffffffn).toString()]; cond = `f64 = reinterpretAsFloat64(toUInt64(${values[0]}))`; idxs = ["bf_f64"]; break;
  }
  const index = r.pick(idxs);
  const enc = values.map((v) => (Buffer.isBuffer(v) ? v.toString("hex") : v));
  manifest.queries.push({ table: t.name, index, kind, values: enc, cond, kept: kept(t.name, index, cond) });
}
fs.writeFileSync(path.join(out, "manifest.json"), JSON.stringify(manifest));
session.close();
fs.rmSync(work, { recursive: true, force: true });
console.log(`live: ClickHouse ${version}, seed ${seed}, ${cityRows.length} cityHash64 and ${intRows.length} intHash64 inputs, ${tables.length} parts, ${manifest.queries.length} queries`);
