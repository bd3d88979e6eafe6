/**
 * Convention chunks: a package's idioms counted on its files' parse trees (error handling, logging
 * library, naming, concurrency) and summed per directory and language into `convention_stats`; a
 * `fmt.Errorf` in a comment or a string counts for nothing.
 */
import { describe, expect, it } from 'vitest';

import { chunkSourceFile } from '../../src/chunks/chunker.js';
import { conventionChunks, type PackageFile } from '../../src/chunks/conventions.js';
import type { FileIdioms } from '../../src/chunks/idioms.js';
import type { CatalogSymbol } from '../../src/core/catalog.js';
import { catalogSymbol } from '../helpers/catalog-symbols.js';

const sym = (file: string, language: string, name: string, line: number, end_line: number) => catalogSymbol(file, language, name, 'function', line, end_line);

async function idioms(file: string, language: string, text: string, symbols: CatalogSymbol[]): Promise<PackageFile> {
  let counts: FileIdioms | undefined;
  await chunkSourceFile({ file, language, text, commitHash: 'h', symbols, idioms: (c) => (counts = c) });
  return { file, language, idioms: counts! };
}

describe('convention chunks', () => {
  it('Go: if err != nil wrapped with %w, slog, goroutines; summed over the directory', async () => {
    const a = [
      'package store',
      'import (',
      '\t"fmt"',
      '\t"log/slog"',
      ')',
      'func Load(p string) error {',
      '\tif err := open(p); err != nil {',
      '\t\treturn fmt.Errorf("load %s: %w", p, err)',
      '\t}',
      '\t// fmt.Errorf("x %w") in a comment is prose',
      '\tgo flush()',
      '\tslog.Info("loaded")',
      '\treturn nil',
      '}',
    ].join('\n');
    const b = [
      'package store',
      'func saveAll() error {',
      '\terr := save()',
      '\tif err != nil {',
      '\t\treturn err',
      '\t}',
      '\tch := make(chan int)',
      '\tgo func() { ch <- 1 }()',
      '\treturn nil',
      '}',
    ].join('\n');
    const files = [
      await idioms('store/a.go', 'go', a, [sym('store/a.go', 'go', 'Load', 6, 14)]),
      await idioms('store/b.go', 'go', b, [sym('store/b.go', 'go', 'saveAll', 2, 10)]),
    ];
    const [c] = conventionChunks('store', files, 'h');
    expect(c!.chunk_kind).toBe('convention');
    expect(c!.file).toBe('store/');
    expect(c!.convention_stats).toEqual({
      files: 2,
      err_check: 2,
      err_wrap_w: 1,
      err_return_bare: 1,
      goroutines: 2,
      channels: 1,
      'log:slog': 1,
      name_pascal: 1,
      name_camel: 1,
    });
    expect(c!.text).toContain('error handling: if err != nil 2, return err unwrapped 1, fmt.Errorf with %w 1');
    expect(c!.text).toContain('logging: slog 1');
    expect(c!.text).toContain('concurrency: go statements 2, channel types 1');
  });

  it('Python: raise and return None, logging, snake_case, asyncio with async/await; TypeScript: throw, console, camelCase', async () => {
    const py = [
      'import asyncio',
      'import logging',
      'async def fetch_page(url):',
      '    if not url:',
      "        raise ValueError('url')",
      '    await asyncio.sleep(0)',
      '    return None',
    ].join('\n');
    const [p] = conventionChunks('', [await idioms('m.py', 'python', py, [sym('m.py', 'python', 'fetch_page', 3, 7)])], 'h');
    expect(p!.file).toBe('./');
    expect(p!.convention_stats).toEqual({
      files: 1,
      raise: 1,
      return_none: 1,
      await: 1,
      async_functions: 1,
      'log:logging': 1,
      'conc:asyncio': 1,
      name_snake: 1,
    });
    const ts = [
      "import pino from 'pino';",
      'export async function loadUser(id: string) {',
      "  if (!id) throw new Error('id');",
      '  console.log(id);',
      '  return { ok: false, error: 1 };',
      '}',
    ].join('\n');
    const [t] = conventionChunks('src', [await idioms('src/u.ts', 'typescript', ts, [sym('src/u.ts', 'typescript', 'loadUser', 2, 6)])], 'h');
    expect(t!.convention_stats).toEqual({ files: 1, throw: 1, console_calls: 1, result_return: 1, async_functions: 1, 'log:pino': 1, name_camel: 1 });
    expect(t!.text.split('\n')[0]).toBe('Conventions of package src (typescript, 1 file)');
  });
});
