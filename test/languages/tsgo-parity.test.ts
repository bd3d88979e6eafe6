/**
 * TypeScript 7's native server (`tsc --lsp --stdio`, servers.json entry `tsgo`, disabled by
 * default) against typescript-language-server: the same operations on two temp copies of
 * fixtures/ts-app, one of which enables tsgo through an extra servers.json (`--servers`).
 *
 * Differences seen (TypeScript 7.0.2 vs typescript-language-server 5.3 + TypeScript 6.0), which
 * the comparisons below normalise away and the bench report documents:
 * - documentSymbol: tsgo also lists every import binding and export-clause specifier as a
 *   Variable symbol; it reports consts as Variable (tsserver: Constant), type aliases as Class
 *   (tsserver: Variable), enum members as EnumMember (tsserver: Constant), namespaces as
 *   Namespace (tsserver: Module), a getter as Property (tsserver: Method), and no `detail`.
 *   The catalog leaves the import bindings out and kinds consts and type aliases as tsserver does
 *   (src/adapters/servers/typescript/imports.ts, typescript-kinds.ts), so lookups by name and symbol ids
 *   agree; enum members and getters keep their kinds. The outline (built by the service from
 *   its own documentSymbol) still lists tsgo's import bindings and is compared without them.
 * - hover: no inherited JSDoc (a constructor without its own comment gets none, not the class's;
 *   an implementing method gets none, not the interface method's).
 * - references: the re-export alias site carries a container name (`toDisplayName`).
 * - raw definition on an overload lists every signature; typeDefinition on a function is null.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CatalogSymbol } from '../../src/core/catalog.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { createLogger } from '../../src/util/logger.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.join(here, '../../fixtures/ts-app');
/** Every import / export-clause form (imports only itself): copied in as src/forms/. */
const importForms = path.join(here, '../../fixtures/ts-import-forms/src/forms');
const logger = createLogger('test', 'error');

function copyFixture(enableTsgo: boolean): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-tsgo-')));
  fs.cpSync(fixture, root, { recursive: true });
  fs.cpSync(importForms, path.join(root, 'src/forms'), { recursive: true });
  if (enableTsgo) {
    // an extra servers.json (--servers) is the user's: a folder's own .lspgate/servers.json may not
    // enable a server unless the user trusted the folder
    fs.writeFileSync(path.join(root, 'tsgo-servers.json'), JSON.stringify({ servers: [{ id: 'tsgo', enabled: true, priority: 100 }] }));
  }
  return root;
}

/** 1-based line and column of the first occurrence of `needle` in a fixture file. */
function at(file: string, needle: string): { file: string; line: number; column: number } {
  const text = fs.readFileSync(path.join(fixture, file), 'utf8');
  const idx = text.indexOf(needle);
  if (idx < 0) throw new Error(`${needle} not in ${file}`);
  const lines = text.slice(0, idx).split('\n');
  return { file, line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/** The result without what legitimately differs between two roots and two servers. */
function comparable(result: Record<string, unknown>): unknown {
  const { _meta: _m, ...rest } = result;
  return JSON.parse(JSON.stringify(rest, (k, v: unknown) => (k === 'uri' || k === 'preview' || k === 'container' ? undefined : v)));
}

describe('tsgo (TypeScript 7 native server) answers like typescript-language-server', () => {
  const roots: string[] = [];
  const cacheDirs: string[] = [];
  let tsls: Gateway;
  let tsgo: Gateway;

  beforeAll(async () => {
    const make = async (enable: boolean) => {
      const root = copyFixture(enable);
      const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
      roots.push(root);
      cacheDirs.push(cacheDir);
      return Gateway.create({ root, cacheDir, logger, serversFiles: enable ? [path.join(root, 'tsgo-servers.json')] : [] });
    };
    tsls = await make(false);
    tsgo = await make(true);
  });
  afterAll(async () => {
    await tsls?.close();
    await tsgo?.close();
    for (const d of [...roots, ...cacheDirs]) fs.rmSync(d, { recursive: true, force: true });
  });

  async function both(op: string, input: Record<string, unknown>) {
    const [a, b] = await Promise.all([tsls.run(op, { ...input, output_format: 'json' }), tsgo.run(op, { ...input, output_format: 'json' })]);
    return { a: a.result, b: b.result };
  }

  it('the servers override routes TypeScript files to tsgo', async () => {
    // `full`: the server's file model (the other details answer from the catalog)
    const { a, b } = await both('get_file_outline', { file: 'src/util/strings.ts', detail: 'full' });
    expect(a._meta.servers.map((s) => s.id)).toEqual(['typescript-language-server']);
    expect(b._meta.servers.map((s) => s.id)).toEqual(['tsgo']);
  });

  it('find_definition at a call site', async () => {
    const { a, b } = await both('find_definition', at('src/models/user.ts', 'formatName(first, last)'));
    expect((a.definitions as { file: string }[])[0]!.file).toBe('src/util/strings.ts');
    expect(comparable(b)).toEqual(comparable(a));
  });

  it('find_definition by name: an imported name is one definition, not its imports (AMBIGUOUS_SYMBOL before)', async () => {
    // Every one of these is imported by other files of the fixture.
    for (const symbol of ['formatName', 'padLeft', 'clamp', 'User', 'Registry', 'Named']) {
      const { a, b } = await both('find_definition', { symbol });
      expect(a.definitions as unknown[]).toHaveLength(1);
      expect(comparable(b)).toEqual(comparable(a));
    }
  });

  it('the catalogs hold the same symbols with the same ids, and no import binding', async () => {
    const catalogs = await Promise.all(
      [tsls, tsgo].map(async (g, i) => {
        const cat = (await g.openWorkspace(roots[i]!)).catalog;
        await cat.build();
        return (await cat.all()).map((s: CatalogSymbol) => ({ id: s.symbol_id, line: s.line, server: s.server }));
      }),
    );
    const [a, b] = catalogs as [{ id: string; line: number; server: string }[], { id: string; line: number; server: string }[]];
    // the catalog comes from parse trees whichever TypeScript server answers the semantic questions
    expect(new Set(a.map((s) => s.server))).toEqual(new Set(['tree-sitter']));
    expect(new Set(b.map((s) => s.server))).toEqual(new Set(['tree-sitter']));
    expect(b.map((s) => s.id)).toEqual(a.map((s) => s.id));
    // No cataloged symbol sits on an import / re-export line (user.ts imports formatName, index.ts
    // re-exports it, src/forms/forms.ts has every form, the multi-line one's `tag` included).
    const importish = /^\s*(import\b|export\s*(type\s*)?[{*]|label as tag,)/;
    for (const s of b) {
      const file = s.id.split('::')[0]!;
      const line = fs.readFileSync(path.join(roots[1]!, file), 'utf8').split('\n')[s.line - 1]!;
      expect(importish.test(line), `${s.id} is on '${line}'`).toBe(false);
    }
    expect(b.filter((s) => s.id.startsWith('src/forms/forms.ts::')).map((s) => s.id)).toEqual([
      'src/forms/forms.ts::local#constant',
      'src/forms/forms.ts::describeForm#function',
      'src/forms/forms.ts::Inner#namespace',
      'src/forms/forms.ts::Inner.doubled#constant',
    ]);
    expect(b.map((s) => s.id)).toContain('src/util/strings.ts::VOWEL_COUNT#constant');
    expect(b.map((s) => s.id)).toContain('src/models/types.ts::EntityId#type');
    // What still differs: enum members (tsserver Constant, tsgo EnumMember), getters (Method vs Property).
    const even = (list: { id: string; line: number }[]) =>
      list.map(
        (s) => `${s.id.replace(/#enum_member$/, '#constant').replace(/^(src\/services\/registry\.ts::Registry\.size)#property$/, '$1#method')} L${s.line}`,
      );
    expect(even(b)).toEqual(even(a));
  });

  it('find_references of a function used across files', async () => {
    const { a, b } = await both('find_references', { symbol_id: 'src/util/strings.ts::formatName#function' });
    expect(a.total).toBe(7); // fixtures/ts-app/EXPECTED.md
    expect(comparable(b)).toEqual(comparable(a));
  });

  it('find_callers of a function and of an abstract method', async () => {
    for (const symbol_id of ['src/util/strings.ts::formatName#function', 'src/models/shape.ts::Shape.area#method']) {
      const { a, b } = await both('find_callers', { symbol_id });
      expect(comparable(b)).toEqual(comparable(a));
    }
  });

  it('find_type_definition builds the same ClassDescriptor, but for inherited doc comments', async () => {
    const { a, b } = await both('find_type_definition', { type_name: 'User', package: 'src/models/user' });
    type Method = { name: string; description?: string };
    const methodsA = a.methods as Method[];
    const methodsB = b.methods as Method[];
    expect((a.fields as unknown[]).length).toBeGreaterThan(5);
    // tsgo's hover carries no inherited JSDoc: the constructor does not get the class's comment and
    // `describe` not the one of Describable.describe. Every description tsgo gives, tsserver gives too.
    for (const m of methodsB) if (m.description) expect(methodsA.find((x) => x.name === m.name)?.description).toBe(m.description);
    expect(methodsB.find((m) => m.name === 'describe')?.description).toBeUndefined();
    expect(methodsA.find((m) => m.name === 'describe')?.description).toBe('Returns a one-line description.');
    const noMethodDocs = (r: Record<string, unknown>) => comparable({ ...r, methods: (r.methods as Method[]).map(({ description: _d, ...m }) => m) });
    expect(noMethodDocs(b)).toEqual(noMethodDocs(a));
  });

  it('get_function_details: a function with defaults, an overloaded one, a method', async () => {
    for (const function_name of ['padLeft', 'scale', 'User.login']) {
      const { a, b } = await both('get_function_details', { function_name, package: function_name === 'User.login' ? 'src/models/user' : undefined });
      expect(comparable(b)).toEqual(comparable(a));
    }
  });

  it('get_file_outline is the same through both servers: no import bindings, consts as constants', async () => {
    const strings = await both('get_file_outline', { file: 'src/util/strings.ts' });
    // `export const VOWEL_COUNT`: Constant for tsserver, Variable for tsgo until lspgate maps it.
    expect(JSON.stringify(comparable(strings.a))).toContain('"kind":"constant"');
    expect(comparable(strings.b)).toEqual(comparable(strings.a));
    // user.ts starts with imports, which tsgo lists as Variable symbols.
    expect(fs.readFileSync(path.join(fixture, 'src/models/user.ts'), 'utf8')).toMatch(/^import /m);
    const { a, b } = await both('get_file_outline', { file: 'src/models/user.ts' });
    expect(comparable(b)).toEqual(comparable(a));
  });
});
