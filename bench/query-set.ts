/**
 * The deterministic query set: files spread over the workspace (seeded sample), and in them the
 * functions, methods and classes that documentSymbol reports, at the position of their names.
 * Chosen with a throw-away raw server so the measured servers start cold.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { type DocumentSymbol, DocumentSymbolRequest, type SymbolInformation, SymbolKind } from 'vscode-languageserver-protocol';

import type { ServerEntry } from '../src/config/schema.js';
import { RawLspClient } from './raw-client.js';
import { createRng } from './seeded-random.js';

export interface Query {
  /** Workspace-relative path with `/`. */
  file: string;
  name: string;
  kind: 'function' | 'method' | 'class';
  /** Enclosing symbol names and this one, dot-joined: `User.login`, `Geometry.Factory.circle`. */
  qualified: string;
  /** 0-based LSP position of the name (selectionRange start). */
  line: number;
  character: number;
}

/** Plain identifiers only: tsserver also reports anonymous callbacks (`items.reduce() callback`). */
const NAME = /^[\w$]+$/;

const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'build', 'vendor', '.lspgate', '__pycache__', '.venv']);

/** Source files the entry serves, sorted, relative with `/`. */
export function listSourceFiles(root: string, entry: ServerEntry, max = 100_000): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= max) return;
      if (d.isDirectory()) {
        if (!SKIP_DIRS.has(d.name) && !d.name.startsWith('.')) walk(path.join(dir, d.name));
      } else if (d.isFile() && entry.extensions.includes(path.extname(d.name)) && !d.name.endsWith('.d.ts')) {
        out.push(path.relative(root, path.join(dir, d.name)).split(path.sep).join('/'));
      }
    }
  };
  walk(root);
  return out;
}

const KINDS: Partial<Record<SymbolKind, Query['kind']>> = {
  [SymbolKind.Function]: 'function',
  [SymbolKind.Method]: 'method',
  [SymbolKind.Class]: 'class',
};

function flatten(symbols: (DocumentSymbol | SymbolInformation)[], file: string, out: Query[], parents: string[] = []): void {
  for (const s of symbols) {
    const kind = KINDS[s.kind];
    const qualified = [...parents, s.name].join('.');
    if ('selectionRange' in s) {
      const { line, character } = s.selectionRange.start;
      if (kind && NAME.test(s.name)) out.push({ file, name: s.name, kind, qualified, line, character });
      flatten(s.children ?? [], file, out, [...parents, s.name]);
    } else if (kind && NAME.test(s.name)) {
      out.push({
        file,
        name: s.name,
        kind,
        qualified: s.containerName ? `${s.containerName}.${s.name}` : s.name,
        line: s.location.range.start.line,
        character: s.location.range.start.character,
      });
    }
  }
}

export interface QuerySetOptions {
  root: string;
  entry: ServerEntry;
  files: string[];
  count: number;
  seed: number;
  cacheDir: string;
}

/** Picks `count` queries: one symbol per sampled file in turn, so they spread over the workspace. */
export async function buildQuerySet(opts: QuerySetOptions): Promise<Query[]> {
  const rng = createRng(opts.seed);
  const sampled = rng.sample(opts.files, Math.min(opts.files.length, Math.max(opts.count, 8)));
  const client = await RawLspClient.start(opts.entry, opts.root, opts.cacheDir);
  try {
    const perFile: Query[][] = [];
    const symbolsOf = async (rel: string) => {
      const abs = path.join(opts.root, rel);
      await client.open(abs);
      const { result } = await client.request(DocumentSymbolRequest.type, { textDocument: { uri: pathToFileURL(abs).href } });
      const qs: Query[] = [];
      flatten(result ?? [], rel, qs);
      return qs;
    };
    await client.waitReady(() => symbolsOf(sampled[0]!));
    for (const rel of sampled) {
      const qs = await symbolsOf(rel);
      if (qs.length) perFile.push(rng.sample(qs, qs.length));
    }
    const out: Query[] = [];
    for (let round = 0; out.length < opts.count && perFile.some((q) => q.length > round); round++) {
      for (const qs of perFile) if (qs[round] && out.length < opts.count) out.push(qs[round]!);
    }
    return out;
  } finally {
    await client.stop();
  }
}
