/**
 * `npm run redteam`'s cases for inputs that must not take the daemon down (bounded parsers and a
 * validated embedder), through spawned front-ends, reported in the same table:
 *   - coverage files: a workspace whose coverage.out names lines 1..20,000,000 of a 6-line file (48
 *     bytes), whose coverage/lcov.info is 65 MiB (over maxCoverageBytes) and whose coverage.json is
 *     not JSON — coverage_report through `lspgate mcp` (thin client of the daemon) and the one-shot
 *     CLI must answer a line report with the range clamped and both other files named, never
 *     INTERNAL; analyze_complexity's test_coverage comes from the clamped profile;
 *   - the embedding endpoint (fixtures/embed-server) answering a 1 GiB body, HTML, a drip after the
 *     headers, Infinity values and wrong shapes: a hybrid search_code answers from BM25 with the
 *     reason, an explicit vector search is a coded error, the endpoint is not read to the end of the
 *     1 GiB; once the endpoint is fixed, hybrid answers with finite scores. (These front-ends carry
 *     LSPGATE_EMBED_*, so the shared daemon, started without them, refuses them and each runs in its
 *     own process, as `--daemon auto` does for any client with another environment.)
 */
import fs from 'node:fs';
import path from 'node:path';

import { type EmbedMode, startEmbedServer } from '../test/helpers/embed-server.js';
import { connectStdio, type StdioConnection, textOf } from '../test/helpers/mcp-client.js';
import { CLI, runCli } from '../test/helpers/spawn.js';
import { codeIn, SAFE } from './redteam-frontends.js';
import type { Line } from './redteam-writes.js';

interface Answer {
  outcome: string;
  text: string;
  json: Record<string, unknown> & { _meta?: { warnings?: string[]; limits_hit?: { limit: string; value: number }[] } };
}

async function mcpAnswer(c: StdioConnection, op: string, args: Record<string, unknown>): Promise<Answer> {
  try {
    const r = await c.client.callTool({ name: op, arguments: { ...args, output_format: 'json' } }, { timeout: 300_000 });
    const text = textOf(r);
    return { outcome: r.isError === true ? codeIn(text) : SAFE, text, json: (r.structuredContent ?? {}) as Answer['json'] };
  } catch (e) {
    return { outcome: codeIn(String(e)), text: String(e), json: {} };
  }
}

async function cliAnswer(args: string[], cacheDir: string, env: Record<string, string> = {}): Promise<Answer> {
  const r = await runCli([...args, '--json'], { cacheDir, env });
  if (r.code !== 0) return { outcome: codeIn(r.stderr), text: r.stderr, json: {} };
  try {
    return { outcome: SAFE, text: r.stdout, json: JSON.parse(r.stdout) as Answer['json'] };
  } catch {
    return { outcome: `uncoded: ${r.stdout.slice(0, 60)}`, text: r.stdout, json: {} };
  }
}

async function timed(what: string, frontend: string, expected: string, run: () => Promise<{ outcome: string; pass: boolean }>): Promise<Line> {
  const t0 = performance.now();
  const r = await run();
  const line = { what, frontend, expected, ...r, ms: Math.round(performance.now() - t0) };
  process.stderr.write(`${line.pass ? 'ok  ' : 'FAIL'} ${frontend}: ${what} → ${line.outcome} (${line.ms} ms)\n`);
  return line;
}

function coverageWorkspace(root: string): void {
  fs.mkdirSync(path.join(root, 'coverage'), { recursive: true });
  fs.writeFileSync(path.join(root, 'go.mod'), 'module example.com/x\n\ngo 1.21\n');
  fs.writeFileSync(path.join(root, 'a.go'), 'package x\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a + b\n}\n');
  fs.writeFileSync(path.join(root, 'coverage.out'), 'mode: set\nexample.com/x/a.go:1.1,20000000.2 1 1\n');
  fs.writeFileSync(path.join(root, 'coverage', 'lcov.info'), Buffer.alloc(65 * 1024 * 1024, 0x20));
  fs.writeFileSync(path.join(root, 'coverage.json'), '{"files": {"a.go": ');
}

/** The coverage report must be a line report of a.go, clamped, with both unusable files named. */
function judgeCoverage(a: Answer): { outcome: string; pass: boolean } {
  const limits = (a.json._meta?.limits_hit ?? []).map((l) => l.limit);
  const warned = (a.json._meta?.warnings ?? []).join('\n');
  const files = (a.json as { coverage?: { by_file?: Record<string, number> } }).coverage?.by_file ?? {};
  const ok =
    a.outcome === SAFE &&
    a.json.mode === 'line' &&
    files['a.go'] === 1 &&
    limits.includes('coverage_line_range') &&
    limits.includes('maxCoverageBytes') &&
    warned.includes('coverage.json');
  return { outcome: a.outcome === SAFE ? `mode ${String(a.json.mode)}, limits_hit ${limits.join('+') || 'none'}` : a.outcome, pass: ok };
}

async function coverageCases(tmp: string, cacheDir: string): Promise<Line[]> {
  const root = path.join(tmp, 'coverage-ws');
  coverageWorkspace(root);
  const expected = 'line report, range clamped, lcov over the limit and bad JSON named';
  const mcp = await connectStdio(CLI, ['mcp', '--tools', 'all', '--root', root], { cacheDir });
  try {
    return [
      await timed('coverage files: 20,000,000-line Go range, 65 MiB lcov, coverage.json not JSON', 'MCP stdio', expected, async () =>
        judgeCoverage(await mcpAnswer(mcp, 'coverage_report', {})),
      ),
      await timed('coverage files: the same, asked again (cached by content)', 'MCP stdio', expected, async () =>
        judgeCoverage(await mcpAnswer(mcp, 'coverage_report', {})),
      ),
      await timed('coverage files: the same through the one-shot CLI', 'CLI', expected, async () =>
        judgeCoverage(await cliAnswer(['coverage_report', '--root', root], cacheDir)),
      ),
      await timed('analyze_complexity of a.go under the 20,000,000-line range', 'MCP stdio', 'test_coverage 1 from the clamped profile', async () => {
        const a = await mcpAnswer(mcp, 'analyze_complexity', { element: 'a.go' });
        const cov = (a.json as { context?: { test_coverage?: number | null } }).context?.test_coverage;
        return { outcome: a.outcome === SAFE ? `test_coverage ${String(cov)}` : a.outcome, pass: a.outcome === SAFE && cov === 1 };
      }),
    ];
  } finally {
    await mcp.client.close().catch(() => undefined);
  }
}

const HOSTILE: [EmbedMode, string][] = [
  ['huge', 'a 1 GiB body'],
  ['not-json', 'an HTML page'],
  ['drip', 'a drip after the headers'],
  ['non-finite', 'Infinity values (1e999)'],
  ['bad-shape', 'strings for numbers, indexes out of range'],
];

async function embedderCases(tmp: string, cacheDir: string): Promise<Line[]> {
  const root = path.join(tmp, 'embed-ws');
  fs.mkdirSync(path.join(root, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(root, 'docs', 'deploy.md'), '# Deploying\n\nThe release robot copies the build to the staging host.\n');
  fs.writeFileSync(path.join(root, 'docs', 'cache.md'), '# Caching\n\nAnswers are kept in a byte-bounded cache.\n');
  const srv = await startEmbedServer('--dim', '8');
  const env = {
    LSPGATE_EMBED_URL: srv.url,
    LSPGATE_EMBED_API: 'openai',
    LSPGATE_EMBED_MODEL: 'redteam',
    LSPGATE_EMBED_DIM: '8',
    LSPGATE_EMBED_TIMEOUT_MS: '3000',
  };
  const mcp = await connectStdio(CLI, ['mcp', '--tools', 'all', '--root', root], { cacheDir, env });
  const search = (mode?: string) => mcpAnswer(mcp, 'search_code', { query: 'release robot staging host', ...(mode ? { mode } : {}) });
  const lines: Line[] = [];
  try {
    for (const [mode, what] of HOSTILE) {
      await srv.setMode(mode);
      const before = (await srv.stats()).bytes_sent;
      lines.push(
        await timed(`embedder answers ${what}: hybrid search_code`, 'MCP stdio', 'bm25 answer with the reason in _meta.warnings', async () => {
          const a = await search();
          const warned = (a.json._meta?.warnings ?? []).some((w) => w.includes('answered with BM25 only'));
          const sent = (await srv.stats()).bytes_sent - before;
          return {
            outcome:
              a.outcome === SAFE ? `mode ${String(a.json.mode)}${warned ? ', warned' : ''}; endpoint sent ${(sent / 1048576).toFixed(1)} MiB` : a.outcome,
            pass: a.outcome === SAFE && a.json.mode === 'bm25' && warned,
          };
        }),
        await timed(`embedder answers ${what}: vector search_code`, 'MCP stdio', 'SERVER_FAILED or TIMEOUT', async () => {
          const a = await search('vector');
          return { outcome: a.outcome, pass: a.outcome === 'SERVER_FAILED' || a.outcome === 'TIMEOUT' };
        }),
        await timed(`embedder answers ${what}: hybrid search_code`, 'CLI', 'bm25 answer', async () => {
          const a = await cliAnswer(['search_code', 'release robot staging host', '--root', root], cacheDir, env);
          return { outcome: a.outcome === SAFE ? `mode ${String(a.json.mode)}` : a.outcome, pass: a.outcome === SAFE && a.json.mode === 'bm25' };
        }),
      );
    }
    await srv.setMode('ok');
    lines.push(
      await timed('embedder fixed after the bad answers: hybrid search_code', 'MCP stdio', 'hybrid, finite scores (nothing bad was stored)', async () => {
        const a = await search();
        const hits = (a.json as { hits?: { score: { vector_distance: number; vector_rank: number } }[] }).hits ?? [];
        const ranked = hits.filter((h) => h.score.vector_rank > 0);
        const finite = ranked.length > 0 && ranked.every((h) => Number.isFinite(h.score.vector_distance));
        return {
          outcome: a.outcome === SAFE ? `mode ${String(a.json.mode)}, ${ranked.length} vector hit(s)${finite ? ', finite' : ''}` : a.outcome,
          pass: a.outcome === SAFE && a.json.mode === 'hybrid' && finite,
        };
      }),
    );
  } finally {
    await mcp.client.close().catch(() => undefined);
    srv.proc.kill('SIGTERM');
  }
  return lines;
}

/** Every bounded-input case, run one after another. */
export async function boundedCases(tmp: string, cacheDir: string): Promise<Line[]> {
  return [...(await coverageCases(tmp, cacheDir)), ...(await embedderCases(tmp, cacheDir))];
}
