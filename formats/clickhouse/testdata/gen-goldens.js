// Writes the golden parts under testdata/: for each table, every index's
// skp_idx_<name>.idx as chdb wrote it and the rows it was built from.
// Usage: CHDB_DIR=$HOME/.cache/filterengine/chdb node gen-goldens.js
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const { loadChdb, rng, rows, makeTable, INDEXES } = require("./chlib.js");

const { Session } = loadChdb();
const work = fs.mkdtempSync(path.join(os.tmpdir(), "ch-golden-"));
const session = new Session(path.join(work, "db"));
const version = session.query("SELECT version()", "TSV").trim();

const tables = [
  // name, seed, rows, rows per granule, codec (default LZ4), empty-array rows
  { name: "lz4", seed: 1, n: 45, granule: 8, codec: "", empty: [16, 24] },
  { name: "zstd", seed: 2, n: 37, granule: 6, codec: "ZSTD(1)", empty: [0, 6] },
];
const manifest = { clickhouse: version, chdb: require(path.join(process.env.CHDB_DIR, "node_modules", "chdb", "package.json")).version, indexes: INDEXES, tables: [] };
for (const t of tables) {
  const data = rows(rng(t.seed), t.n, { emptyArraysFrom: t.empty[0], emptyArraysTo: t.empty[1] });
  const part = makeTable(session, work, t.name, data, t.granule, t.codec);
  const dir = path.join(__dirname, t.name);
  fs.mkdirSync(dir, { recursive: true });
  for (const x of INDEXES) fs.copyFileSync(path.join(part, `skp_idx_${x.name}.idx`), path.join(dir, `skp_idx_${x.name}.idx`));
  fs.writeFileSync(path.join(dir, "rows.json"), JSON.stringify(data, null, 0).replace(/\},\{/g, "},\n{") + "\n");
  manifest.tables.push({ name: t.name, rows: t.n, granule: t.granule, codec: t.codec || "LZ4 (default)" });
}
fs.writeFileSync(path.join(__dirname, "manifest.json"), JSON.stringify(manifest, null, 1) + "\n");
session.close();
fs.rmSync(work, { recursive: true, force: true });
console.log(`goldens written by ClickHouse ${version}`);
