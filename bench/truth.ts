/**
 * `npm run truth [-- --lang ts,go,py,php] [--work DIR] [--json FILE]`: lspgate's analyses on real
 * code this machine has (bench/truth/corpora.ts), compared with independent truth (the compilers'
 * own tools and raw language servers, bench/truth/oracles.ts), one table row per analysis,
 * language and defect class: how far they agree, which answers were partial (and said so), which
 * failed. Not part of CI: it takes tens of minutes on 2 cores. The table goes to stdout, the rows
 * as JSON to --json (default <work>/truth.json).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareCorpus, type Lang } from './truth/corpora.js';
import { TruthContext } from './truth/context.js';
import { callTrees, changedSymbols, citations, getContext, importGraph, impact, workspaceAnalyses } from './truth/checks-common.js';
import { diagnosticsCold, diagnosticsVsTsc, goCallers, goDeadCode, goTags, phpReferences, pyComplexity, pyDeadOverrides, pyOutsideProject, tsAmbiguity } from './truth/checks-lang.js';
import { truthFor } from './truth/oracles.js';
import { renderTable, type Row } from './truth/table.js';

const CHECKS = [workspaceAnalyses, importGraph, callTrees, impact, getContext, goCallers, goDeadCode, pyDeadOverrides, pyComplexity, goTags, tsAmbiguity, diagnosticsVsTsc, changedSymbols, citations, pyOutsideProject, phpReferences, diagnosticsCold];

function args(argv: string[]): { langs: Lang[]; work: string; json?: string } {
  let langs: Lang[] = ['ts', 'go', 'py', 'php'];
  let work = process.env.LSPGATE_TRUTH_DIR ?? path.join(os.tmpdir(), 'lspgate-truth');
  let json: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--lang') langs = argv[++i]!.split(',') as Lang[];
    else if (argv[i] === '--work') work = path.resolve(argv[++i]!);
    else if (argv[i] === '--json') json = path.resolve(argv[++i]!);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  return { langs, work, ...(json ? { json } : {}) };
}

async function runLanguage(lang: Lang, work: string): Promise<Row[]> {
  const t0 = performance.now();
  const corpus = prepareCorpus(lang, work);
  if (!corpus) return [{ analysis: 'corpus', lang, defect: '-', truth: '-', agreement: 'not available on this machine (apt-get download failed)', partial: '-', failures: '-' }];
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
console.log(renderTable(rows));
fs.writeFileSync(a.json ?? path.join(a.work, 'truth.json'), JSON.stringify({ at: new Date().toISOString(), rows }, null, 2));
