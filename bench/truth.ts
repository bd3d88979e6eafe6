/**
 * `npm run truth [-- --lang ts,go,py,php] [--work DIR] [--json FILE] [--no-structure]`: lspgate's analyses on real
 * code this machine has (bench/truth/corpora.ts), compared with independent truth (the compilers'
 * own tools and raw language servers, bench/truth/oracles.ts), one table row per analysis,
 * language and defect class: how far they agree, which answers were partial (and said so), which
 * failed. Not part of CI: it takes tens of minutes on 2 cores. The table goes to stdout, the rows
 * as JSON to --json (default <work>/truth.json). The type-relation rows of truth-structure.ts
 * (`npm run truth:structure`, the same row shape) are added for ts, go and py unless --no-structure.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { callTrees, changedSymbols, citations, getContext, impact, importGraph, workspaceAnalyses } from './truth/checks-common.js';
import {
  diagnosticsCold,
  diagnosticsVsTsc,
  goCallers,
  goDeadCode,
  goTags,
  phpReferences,
  pyComplexity,
  pyDeadOverrides,
  pyOutsideProject,
  tsAmbiguity,
} from './truth/checks-lang.js';
import { TruthContext } from './truth/context.js';
import { type Lang, prepareCorpus } from './truth/corpora.js';
import { truthFor } from './truth/oracles.js';
import { renderTable, type Row } from './truth/table.js';

const CHECKS = [
  workspaceAnalyses,
  importGraph,
  callTrees,
  impact,
  getContext,
  goCallers,
  goDeadCode,
  pyDeadOverrides,
  pyComplexity,
  goTags,
  tsAmbiguity,
  diagnosticsVsTsc,
  changedSymbols,
  citations,
  pyOutsideProject,
  phpReferences,
  diagnosticsCold,
];

function args(argv: string[]): { langs: Lang[]; work: string; json?: string; structure: boolean } {
  let langs: Lang[] = ['ts', 'go', 'py', 'php'];
  let work = process.env.LSPGATE_TRUTH_DIR ?? path.join(os.tmpdir(), 'lspgate-truth');
  let json: string | undefined;
  let structure = true;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--lang') langs = argv[++i]!.split(',') as Lang[];
    else if (argv[i] === '--work') work = path.resolve(argv[++i]!);
    else if (argv[i] === '--json') json = path.resolve(argv[++i]!);
    else if (argv[i] === '--no-structure') structure = false;
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return { langs, work, ...(json ? { json } : {}), structure };
}

/** The type-relation rows of truth-structure.js for the languages it measures (its table goes to stderr). */
function structureRows(langs: Lang[], work: string): Row[] {
  const measured = langs.filter((l) => l === 'ts' || l === 'go' || l === 'py');
  if (!measured.length) return [];
  const out = path.join(work, 'truth-structure.json');
  fs.rmSync(out, { force: true });
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'truth-structure.js');
  const env = { ...process.env, LSPGATE_TRUTH_DIR: path.join(work, 'structure') };
  const r = spawnSync(process.execPath, [script, ...measured, '--json', out], { stdio: ['ignore', 2, 'inherit'], env });
  if (r.status !== 0 || !fs.existsSync(out)) {
    return [
      {
        analysis: 'type relations (syntax+server)',
        lang: measured[0]!,
        defect: 'structure from parse trees',
        truth: '-',
        agreement: '-',
        partial: '-',
        failures: `harness: truth-structure exited ${r.status ?? r.signal}`,
      },
    ];
  }
  return (JSON.parse(fs.readFileSync(out, 'utf8')) as { rows: Row[] }).rows;
}

async function runLanguage(lang: Lang, work: string): Promise<Row[]> {
  const t0 = performance.now();
  const corpus = prepareCorpus(lang, work);
  if (!corpus)
    return [
      { analysis: 'corpus', lang, defect: '-', truth: '-', agreement: 'not available on this machine (apt-get download failed)', partial: '-', failures: '-' },
    ];
  const truth = truthFor(corpus);
  const ctx = await TruthContext.open(corpus, truth);
  try {
    const index = await ctx.run('index_folder', { path: corpus.root });
    if (!index.ok) console.error(`${lang}: index_folder ${index.code}: ${index.message}`);
    for (const check of CHECKS) {
      const c0 = performance.now();
      try {
        await check(ctx);
      } catch (e) {
        ctx.add({ analysis: check.name, defect: '-', truth: '-', agreement: '-', partial: '-', failures: `harness: ${(e as Error).message.slice(0, 160)}` });
      }
      console.error(`${lang}: ${check.name} ${Math.round(performance.now() - c0)} ms`);
    }
  } finally {
    await ctx.close();
  }
  console.error(`${lang}: done in ${Math.round((performance.now() - t0) / 1000)} s`);
  return ctx.rows;
}

const a = args(process.argv.slice(2));
fs.mkdirSync(a.work, { recursive: true });
const rows: Row[] = [];
for (const lang of a.langs) rows.push(...(await runLanguage(lang, a.work)));
if (a.structure) rows.push(...structureRows(a.langs, a.work));
console.log(renderTable(rows));
fs.writeFileSync(a.json ?? path.join(a.work, 'truth.json'), JSON.stringify({ at: new Date().toISOString(), rows }, null, 2));
