/**
 * The vector-store choice, measured: LanceDB's embedded library against lspgate's SqliteVectorStore
 * (sqlite-vec in the workspace database) on 10,000 seeded random 512-dim rows (500 files): build,
 * bytes on disk, cold open + first search (a new process), filtered search p50 (a filter every row
 * passes, and a path glob keeping 2% of the rows: sqlite's KNN bounded to their rowids), and
 * replacing one file. Needs node:sqlite (Node >= 22.13). LanceDB is not a dependency; install it
 * elsewhere and point LANCEDB_DIR at that folder:
 *
 *   mkdir /tmp/lance-eval && (cd /tmp/lance-eval && npm init -y && npm i @lancedb/lancedb apache-arrow@18.1.0)
 *   npm run build
 *   for e in lance sqlite; do for p in build open; do LANCEDB_DIR=/tmp/lance-eval node bench/vector-engines.mjs $e $p; done; done
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const [engine, phase] = process.argv.slice(2);
const N = 10000,
  DIM = 512,
  DIR = path.join(process.env.TMPDIR ?? '/tmp', `lspgate-vector-engines-${engine}`);
let seed = 1;
const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5;
const vec = () => {
  const v = new Float32Array(DIM);
  for (let i = 0; i < DIM; i++) v[i] = rnd();
  return v;
};
const rows = [];
for (let i = 0; i < N; i++) rows.push({ id: `id${i}`, file: `src/f${i % 500}.ts`, language: 'typescript', vector: vec() });
const queries = Array.from({ length: 50 }, vec);
const du = (d) =>
  fs
    .readdirSync(d, { recursive: true })
    .map((f) => fs.statSync(`${d}/${f}`))
    .filter((s) => s.isFile())
    .reduce((a, s) => a + s.size, 0);
const p50 = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let t = performance.now();
if (engine === 'lance') {
  const lancedb = createRequire(path.join(process.env.LANCEDB_DIR ?? '.', 'package.json'))('@lancedb/lancedb');
  const db = await lancedb.connect(DIR);
  if (phase === 'build') {
    fs.rmSync(DIR, { recursive: true, force: true });
    const db2 = await lancedb.connect(DIR);
    await db2.createTable(
      'chunks',
      rows.map((r) => ({ ...r, vector: Array.from(r.vector) })),
      { mode: 'overwrite' },
    );
    console.log('build_ms', Math.round(performance.now() - t), 'bytes', du(DIR));
  } else {
    const tbl = await db.openTable('chunks');
    const r = await tbl.vectorSearch(queries[0]).distanceType('cosine').limit(10).toArray();
    console.log('cold_open_and_first_search_ms', Math.round(performance.now() - t), r.length);
    const lat = [];
    for (const q of queries) {
      t = performance.now();
      await tbl.vectorSearch(q).distanceType('cosine').limit(10).where("language = 'typescript'").toArray();
      lat.push(performance.now() - t);
    }
    console.log('search_p50_ms', p50(lat).toFixed(2));
    t = performance.now();
    await tbl.delete("file = 'src/f1.ts'");
    await tbl.add(rows.filter((r) => r.file === 'src/f1.ts').map((r) => ({ ...r, vector: Array.from(r.vector) })));
    console.log('replace_one_file_ms', Math.round(performance.now() - t));
  }
} else {
  const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/src/chunks');
  const { SqliteVectorStore } = await import(`${dist}/vector-store.js`);
  const { openSqlite } = await import(`${dist}/sqlite-handle.js`);
  const id = { provider: 'bench', model: 'rand', dim: DIM, pooling: '', normalize: '' };
  const rec = (r) => ({
    id: r.id,
    file: r.file,
    start_line: 1,
    end_line: 1,
    language: r.language,
    is_test: false,
    commit_hash: '',
    content_sha256: r.id,
    embed_key: r.id,
  });
  if (phase === 'build') {
    fs.rmSync(DIR, { recursive: true, force: true });
    fs.mkdirSync(DIR, { recursive: true });
    const s = SqliteVectorStore.open(openSqlite(path.join(DIR, 'index.db')), id);
    for (let i = 0; i < N; i += 256)
      s.upsert(
        rows.slice(i, i + 256).map(rec),
        rows.slice(i, i + 256).map((r) => r.vector),
      );
    console.log('build_ms', Math.round(performance.now() - t), 'bytes', du(DIR));
  } else {
    const s = SqliteVectorStore.open(openSqlite(path.join(DIR, 'index.db')), id);
    const r = s.search(queries[0], 10);
    console.log('cold_open_and_first_search_ms', Math.round(performance.now() - t), r.length);
    const lat = [];
    for (const q of queries) {
      t = performance.now();
      s.search(q, 10, { language: 'typescript' });
      lat.push(performance.now() - t);
    }
    console.log('search_p50_ms', p50(lat).toFixed(2));
    const narrow = [];
    for (const q of queries) {
      t = performance.now();
      s.search(q, 10, { path: 'src/f1?.ts' });
      narrow.push(performance.now() - t);
    }
    console.log('search_path_filter_p50_ms', p50(narrow).toFixed(2));
    const f1 = rows.filter((r) => r.file === 'src/f1.ts');
    t = performance.now();
    s.replace(
      ['src/f1.ts'],
      f1.map(rec),
      f1.map((r) => r.vector),
    );
    console.log('replace_one_file_ms', Math.round(performance.now() - t));
  }
}
