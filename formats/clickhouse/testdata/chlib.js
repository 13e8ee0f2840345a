// Shared by gen-goldens.js and ../interop/live.js: random rows, the table
// DDL, loading rows into chdb and collecting the skp_idx_*.idx files.
"use strict";
const fs = require("fs");
const path = require("path");

function loadChdb() {
  const dir = process.env.CHDB_DIR;
  if (!dir) throw new Error("set CHDB_DIR to the folder holding node_modules/chdb");
  return require(path.join(dir, "node_modules", "chdb"));
}

// xorshift64*: deterministic from a seed, so a golden set can be rebuilt.
function rng(seed) {
  let x = BigInt.asUintN(64, BigInt(seed) * 0x9E3779B97F4A7C15n + 1n);
  const next = () => {
    x ^= x >> 12n; x ^= BigInt.asUintN(64, x << 25n); x ^= x >> 27n;
    return BigInt.asUintN(64, x * 0x2545F4914F6CDD1Dn);
  };
  return {
    u64: next,
    int: (n) => Number(next() % BigInt(n)),
    pick: (arr) => arr[Number(next() % BigInt(arr.length))],
  };
}

const SEPS = [0x20, 0x2c, 0x2e, 0x2d, 0x5f, 0x2f, 0x00, 0x0a, 0x21, 0x7f, 0x3a];
const UTF8 = ["é", "ß", "ж", "中", "文", "😀", "ñ", "€"].map((c) => Buffer.from(c, "utf8"));
// Bytes that are not valid UTF-8: lone continuation bytes, bytes >= 0xF8,
// and lead bytes whose sequence the end of the value may cut.
const BAD = [[0x80], [0xbf], [0xf8], [0xff], [0xfe], [0xc3], [0xe4, 0xb8], [0xf0, 0x9f]];

// A random token of 1-40 bytes mixing ASCII alphanumerics, UTF-8 and bad bytes.
function token(r) {
  const len = 1 + r.int(40);
  const out = [];
  while (out.length < len) {
    const c = r.int(10);
    if (c < 7) out.push(r.pick([...Buffer.from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")]));
    else if (c < 9) out.push(...r.pick(UTF8));
    else out.push(...r.pick(BAD));
  }
  return Buffer.from(out.slice(0, len));
}

// A random string value: empty, a few tokens with separators, or long.
function str(r, vocab) {
  const c = r.int(20);
  if (c === 0) return Buffer.alloc(0);
  if (c === 1) return Buffer.from([r.pick(SEPS)]);
  const parts = [];
  const n = c === 2 ? 20 + r.int(30) : 1 + r.int(5); // c == 2: a long string
  for (let i = 0; i < n; i++) {
    if (i > 0 || r.int(4) === 0) parts.push(Buffer.from([r.pick(SEPS)]));
    parts.push(vocab && r.int(3) > 0 ? r.pick(vocab) : token(r));
  }
  if (r.int(4) === 0) parts.push(Buffer.from([r.pick(SEPS)]));
  return Buffer.concat(parts);
}

function f64bits(r) {
  const c = r.int(12);
  if (c === 0) return 0n; // 0.0
  if (c === 1) return 0x8000000000000000n; // -0.0
  if (c === 2) return 0x7ff8000000000000n; // NaN
  if (c === 3) return BigInt(r.int(5)) * 0x0010000000000000n + 0x3ff0000000000000n; // small powers of two
  return r.u64() & 0x7fefffffffffffffn | (r.u64() & 0x8000000000000000n); // finite
}

function f32bits(r) {
  const c = r.int(12);
  if (c === 0) return 0n;
  if (c === 1) return 0x80000000n;
  if (c === 2) return 0x7fc00000n;
  if (c === 3) return 0x3f800000n;
  let b = r.u64() & 0xffffffffn;
  if ((b & 0x7f800000n) === 0x7f800000n) b &= ~0x00800000n; // finite
  return b;
}

function i32(r) {
  const c = r.int(6);
  if (c === 0) return -1 - r.int(1000);
  if (c === 1) return r.int(1000);
  return Number(BigInt.asIntN(32, r.u64()));
}

function u64(r) {
  const c = r.int(5);
  if (c === 0) return BigInt(r.int(100));
  return r.u64();
}

// rows(r, n): every column of the test tables, as JSON-ready values
// (strings as hex, floats as bit patterns, integers as decimal strings).
function rows(r, n, opts = {}) {
  const vocab = Array.from({ length: 30 }, () => token(r));
  const out = [];
  for (let i = 0; i < n; i++) {
    const arrLen = opts.emptyArraysFrom !== undefined && i >= opts.emptyArraysFrom && i < opts.emptyArraysTo ? 0 : r.int(4);
    out.push({
      rn: String(i),
      s: str(r, vocab).toString("hex"),
      u: u64(r).toString(),
      i: String(i32(r)),
      f32: f32bits(r).toString(),
      f64: f64bits(r).toString(),
      a: Array.from({ length: arrLen }, () => str(r, vocab).toString("hex")),
    });
  }
  return out;
}

const COLUMNS = "rn UInt64, s String, u UInt64, i Int32, f32 Float32, f64 Float64, a Array(String)";

// The indexes of the test tables: name, TYPE clause, expression columns.
const INDEXES = [
  { name: "tok", type: "tokenbf_v1(256, 3, 0)", columns: ["s"] },
  { name: "tok2", type: "tokenbf_v1(100, 2, 7)", columns: ["s", "a"] },
  { name: "ng3", type: "ngrambf_v1(3, 512, 2, 0)", columns: ["s"] },
  { name: "ng1", type: "ngrambf_v1(1, 61, 4, 123456789)", columns: ["a"] },
  { name: "ng4", type: "ngrambf_v1(4, 1024, 3, 18446744073709551615)", columns: ["s"] },
  { name: "bf_s", type: "bloom_filter", columns: ["s"] },
  { name: "bf_u", type: "bloom_filter(0.01)", columns: ["u"] },
  { name: "bf_i", type: "bloom_filter(0.0216)", columns: ["i"] },
  { name: "bf_f32", type: "bloom_filter(0.3)", columns: ["f32"] },
  { name: "bf_f64", type: "bloom_filter(0.001)", columns: ["f64"] },
  { name: "bf_a", type: "bloom_filter(0.024)", columns: ["a"] },
  { name: "bf_multi", type: "bloom_filter(0.05)", columns: ["u", "i", "s"] },
];

// makeTable creates a MergeTree table with every index (GRANULARITY 1) and
// `granule` rows per index granule, loads rows through a JSONEachRow file,
// and returns the part's folder.
function makeTable(session, work, name, data, granule, codec) {
  const idx = INDEXES.map((x) => `INDEX ${x.name} (${x.columns.join(", ")}) TYPE ${x.type} GRANULARITY 1`).join(", ");
  const codecSetting = codec ? `, default_compression_codec = '${codec}'` : "";
  session.query(`CREATE TABLE ${name} (${COLUMNS}, ${idx}) ENGINE = MergeTree ORDER BY rn
    SETTINGS index_granularity = ${granule}, index_granularity_bytes = '1Gi', min_bytes_for_wide_part = 0${codecSetting}`);
  const file = path.join(work, name + ".jsonl");
  fs.writeFileSync(file, data.map((x) => JSON.stringify(x)).join("\n") + "\n");
  session.query(`INSERT INTO ${name} SELECT toUInt64(rn), unhex(s), toUInt64(u), toInt32(i),
      reinterpretAsFloat32(toUInt32(f32)), reinterpretAsFloat64(toUInt64(f64)), arrayMap(x -> unhex(x), a)
    FROM file('${file}', 'JSONEachRow', 'rn String, s String, u String, i String, f32 String, f64 String, a Array(String)')
    SETTINGS max_insert_block_size = 1000000, min_insert_block_size_rows = 1000000`);
  const parts = session.query(`SELECT path FROM system.parts WHERE table = '${name}' AND active`, "TSV").trim().split("\n");
  if (parts.length !== 1) throw new Error(`${name}: want one part, got ${parts.length}`);
  return parts[0];
}

module.exports = { loadChdb, rng, rows, makeTable, INDEXES, COLUMNS, token };
