/**
 * What one hostile file costs the syntax tier: each input (a long line of 20,000 declarations, a
 * real minified library, 100,000 levels of nesting per language) is written to a temp file and
 * cataloged by syntaxEntry (the per-file work of a syntax worker: parse, declarations, signatures,
 * docstrings, hashes) in a child process of its own, which reports wall time, peak RSS and the
 * number of symbols; a child that runs past the timeout is killed, one that dies is reported with
 * its last words.
 *
 *   node dist/bench/extract-bounded.js [--dist DIR] [--timeout SECONDS] [--only SUBSTRING]
 *
 * `--dist` points at another build's dist/ (the code before a change) to compare; default: this one.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { deepInputs, type HostileInput, longLineInputs, minifiedInputs } from '../test/helpers/hostile-sources.js';

const here = path.dirname(fileURLToPath(import.meta.url));

interface ChildReport {
  ms: number;
  rssMb: number;
  symbols: number;
  skipped?: string;
}

async function child(dist: string, file: string, rel: string): Promise<void> {
  const mod = (await import(pathToFileURL(path.join(dist, 'src/service/cataloging/syntax-entry.js')).href)) as {
    syntaxEntry(f: { rel: string; abs: string; root: string; bytes: Buffer; size: number; mtimeMs: number }): Promise<{ symbols: unknown[] } | undefined>;
  };
  const bytes = fs.readFileSync(file);
  const t0 = performance.now();
  let symbols = 0;
  let skipped: string | undefined;
  try {
    const entry = await mod.syntaxEntry({ rel, abs: file, root: path.dirname(file), bytes, size: bytes.length, mtimeMs: 0 });
    symbols = entry?.symbols.length ?? 0;
  } catch (e) {
    const err = e as { code?: string; message?: string };
    skipped = `${err.code ?? 'error'}: ${String(err.message).slice(0, 80)}`;
  }
  const report: ChildReport = {
    ms: Math.round(performance.now() - t0),
    rssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    symbols,
    ...(skipped ? { skipped } : {}),
  };
  process.stdout.write(JSON.stringify(report) + '\n');
}

function runOne(dist: string, input: HostileInput, dir: string, timeoutMs: number): Promise<string> {
  const file = path.join(dir, input.rel);
  fs.writeFileSync(file, input.text);
  return new Promise((resolve) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, ['--max-old-space-size=4096', fileURLToPath(import.meta.url), '--child', dist, file, input.rel], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let timedOut = false;
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-2000)));
    const timer = setTimeout(() => {
      timedOut = true;
      p.kill('SIGKILL');
    }, timeoutMs);
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      fs.rmSync(file, { force: true });
      if (timedOut) return resolve(`no answer in ${timeoutMs / 1000} s (killed)`);
      try {
        const r = JSON.parse(out.trim().split('\n').pop()!) as ChildReport;
        resolve(`${r.ms} ms, peak RSS ${r.rssMb} MB, ${r.symbols} symbols${r.skipped ? `, ${r.skipped}` : ''}`);
      } catch {
        const last =
          err
            .trim()
            .split('\n')
            .filter((l) => l.trim())
            .slice(-1)[0] ?? '';
        resolve(`died (${signal ?? `exit ${code}`}) after ${Math.round(performance.now() - t0)} ms: ${last.slice(0, 100)}`);
      }
    });
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') return child(args[1]!, args[2]!, args[3]!);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const dist = path.resolve(opt('--dist') ?? path.join(here, '..'));
  const timeoutMs = Number(opt('--timeout') ?? 120) * 1000;
  const only = opt('--only');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-extract-bench-'));
  try {
    const inputs = [...longLineInputs(), ...minifiedInputs(), ...deepInputs()].filter((i) => !only || i.name.includes(only));
    process.stderr.write(`syntax tier of ${dist}, timeout ${timeoutMs / 1000} s\n`);
    for (const input of inputs) {
      const kb = Math.round(Buffer.byteLength(input.text) / 1024);
      process.stdout.write(`${input.name.padEnd(28)} ${String(kb).padStart(5)} KB  ${await runOne(dist, input, dir, timeoutMs)}\n`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
