/**
 * A warm symbol-edit preview with referencing files on a 300-file TypeScript package (the bound:
 * within 5 s). zod's own sources (node_modules/zod/src: v3, v4, mini, locales, 332 files) are
 * copied with a tsconfig that takes them all; once the server is warm (a diagnostics answer and a
 * reference search), functions of v4/core/util.ts get an optional parameter (a signature change: the
 * delta covers every referencing file, up to its cap of 20), each previewed twice, and the wall time,
 * the files the delta covered, its verdict, and the LSP requests sent (with the time the server spent
 * answering them, overlaps counted once) are printed.
 *   npm run build && node dist/bench/preview-warm.js [--names=a,b] [--detail]
 * (--detail: every request of each preview, with its send offset, duration and tsserver command)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Gateway } from '../src/gateway/gateway.js';
import { OpTrace } from './op-trace.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
type Json = Record<string, unknown>;

const DEFAULT_NAMES = ['cleanRegex', 'joinValues', 'esc', 'floatSafeRemainder', 'escapeRegex', 'shallowClone', 'isObject', 'normalizeParams'];

function countBy(xs: string[]): string {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return [...m].map(([k, v]) => `${k}×${v}`).join(', ');
}

/** The p-th percentile (nearest rank), rounded ms. */
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)] ?? NaN);
}

async function main(): Promise<void> {
  const names =
    process.argv
      .find((a) => a.startsWith('--names='))
      ?.slice('--names='.length)
      .split(',') ?? DEFAULT_NAMES;
  const detail = process.argv.includes('--detail');
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-preview-warm-')));
  const root = path.join(tmp, 'zod');
  fs.cpSync(path.join(REPO, 'node_modules/zod/src'), path.join(root, 'src'), { recursive: true });
  const files = fs.readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  fs.writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        strict: true,
        noEmit: true,
        lib: ['esnext', 'dom'],
        skipLibCheck: true,
      },
      include: ['src/**/*.ts'],
    }),
  );
  fs.writeFileSync(path.join(root, 'package.json'), '{ "name": "zod-copy", "private": true, "type": "module" }\n');
  const g = await Gateway.create({ root, cacheDir: path.join(tmp, 'cache') });
  const trace = new OpTrace();
  const file = 'src/v4/core/util.ts';
  const out: string[] = [`zod sources: ${files.length} TypeScript files; load ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`];
  try {
    let t = performance.now();
    await g.run('get_diagnostics', { file, wait_ms: 300_000, output_format: 'json' });
    await g.run('find_references', { symbol_id: `${file}::cleanRegex#function`, output_format: 'json' });
    out.push(`warm-up (first diagnostics + a reference search): ${Math.round(performance.now() - t)} ms`);
    trace.attach(g.context.broker.existing()[0]);
    const firsts: number[] = [];
    const seconds: number[] = [];
    for (const name of names) {
      const id = `${file}::${name}#function`;
      const src = ((await g.run('get_symbol', { symbol_id: id, output_format: 'json' })).result as Json).source as string;
      const body = src.replace(/\)\s*(:[^{]*)?\{/, (m) => `, lspgateWarm?: number${m}`);
      if (body === src) continue;
      for (const round of [1, 2]) {
        t = performance.now();
        const r = (await g.run('replace_symbol_body', { symbol_id: id, body, output_format: 'json' })).result as Json;
        const end = performance.now();
        (round === 1 ? firsts : seconds).push(end - t);
        const b = trace.window(t, end, file);
        const ref = r.referencing as { files?: string[]; total_files?: number } | undefined;
        out.push(
          `${name} (round ${round}): ${Math.round(end - t)} ms; referencing ${ref?.files?.length ?? 0} of ${ref?.total_files ?? 0} files; ` +
            `diagnostics ${String(r.diagnostics)}, unchecked ${(r.unchecked as unknown[]).length}, introduced ${(r.introduced as unknown[]).length}; ` +
            `server ${Math.round(b.serverMs)} ms over ${b.requests.length} requests (${countBy(b.requests)})`,
        );
        if (detail) out.push(...trace.requestLines(t, end));
      }
    }
    const all = [...firsts, ...seconds];
    out.push(
      `previews ${all.length}: p50 ${pct(all, 50)} ms, p95 ${pct(all, 95)} ms, max ${pct(all, 100)} ms; first of each p95 ${pct(firsts, 95)} ms; ` +
        `load at the end ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`,
    );
  } finally {
    await g.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  process.stdout.write(out.join('\n') + '\n');
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`[preview-warm] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
