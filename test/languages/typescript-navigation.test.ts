// Navigation on fixtures/ts-app through the real typescript-language-server, checked against
// EXPECTED.md and against the raw server's answers for the same positions.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';
import { ReferencesRequest } from 'vscode-languageserver-protocol';

import { openFixture } from '../helpers/gateway.js';
import { lineOf, positionOf } from '../helpers/positions.js';
import type { CallNode, CallSite, DefinitionEntry, ListedSymbol, ReferenceEntry, WorkspaceInfo } from '../helpers/results.js';

const fx = await openFixture('ts-app');

type Node = { name: string; kind: string; file: string; line: number; cycle?: boolean; calls?: Node[]; children?: Node[]; call_sites?: { line: number }[] };

/** A call tree as indented text (the typescript-language-server test habit). */
function treeText(root: Node): string {
  const out = [`${root.name} ${root.file}:${root.line}`];
  const walk = (nodes: Node[] | undefined, depth: number) => {
    for (const n of nodes ?? []) {
      out.push(`${'  '.repeat(depth)}${n.kind} ${n.name} ${n.file}:${n.line} @${(n.call_sites ?? []).map((s) => s.line).join(',')}${n.cycle ? ' cycle' : ''}`);
      walk(n.children, depth + 1);
    }
  };
  walk(root.calls, 1);
  return out.join('\n');
}

describe('find_definition', () => {
  it('goes from a use (file + line + column) to the declaration, with symbol_id and preview', async () => {
    const use = positionOf(fx.root, 'src/app.ts', 'buildReport(users)');
    const r = await fx.run('find_definition', { file: 'src/app.ts', line: use.line, column: use.column });
    const decl = positionOf(fx.root, 'src/services/report.ts', 'buildReport(users: Registry', {});
    expect(r.found).toBe(true);
    expect(r.definitions).toEqual([
      {
        symbol_id: 'src/services/report.ts::buildReport#function',
        name: 'buildReport',
        kind: 'function',
        file: 'src/services/report.ts',
        line: decl.line,
        column: decl.column,
        end_line: lineOf(fx.root, 'src/services/report.ts', "return lines.join('\\n');") + 1,
        preview: {
          lines: [
            '/** Builds the text report of all users. */',
            'export function buildReport(users: Registry<User>): string {',
            '  const lines = summarizeUsers(users.all());',
          ],
          start_line: decl.line - 1,
        },
      },
    ]);
  });

  it('resolves a qualified name and a method with its container', async () => {
    const r = await fx.run('find_definition', { symbol: 'User.fromFullName' });
    expect(r.definitions.map((d: DefinitionEntry) => [d.name, d.kind, d.container, d.file, d.line])).toEqual([
      ['fromFullName', 'method', 'User', 'src/models/user.ts', lineOf(fx.root, 'src/models/user.ts', 'static fromFullName')],
    ]);
  });

  it('a line without column picks the declaration on that line', async () => {
    const line = lineOf(fx.root, 'src/util/strings.ts', 'export function capitalize');
    const r = await fx.run('find_definition', { file: 'src/util/strings.ts', line });
    expect(r.definitions.map((d: DefinitionEntry) => d.symbol_id)).toEqual(['src/util/strings.ts::capitalize#function']);
  });
});

describe('find_references', () => {
  it('lists the 7 references of formatName (EXPECTED.md) with containers, like the raw server', async () => {
    const r = await fx.run('find_references', { symbol: 'formatName' });
    expect(r.total).toBe(7);
    expect(r.references.map((x: ReferenceEntry) => `${x.file}:${x.line}:${x.column}${x.container ? ` in ${x.container}` : ''}`)).toEqual([
      'src/index.ts:4:10',
      'src/index.ts:4:24',
      'src/models/user.ts:1:10',
      'src/models/user.ts:21:17 in User.constructor',
      'src/services/report.ts:2:10',
      'src/services/report.ts:15:52 in summarizeUsers',
      'src/util/strings.ts:7:17',
    ]);
    // The raw server, asked directly at the same position, agrees (after de-duplication).
    const abs = path.join(fx.root, 'src/util/strings.ts');
    const session = await fx.gateway.context.broker.sessionFor(abs, fx.root);
    const decl = positionOf(fx.root, 'src/util/strings.ts', 'formatName(first');
    const raw = await session.request(ReferencesRequest.type, {
      textDocument: { uri: pathToFileURL(abs).href },
      position: { line: decl.line - 1, character: decl.column - 1 },
      context: { includeDeclaration: true },
    });
    const rawKeys = [
      ...new Set((raw ?? []).map((l) => `${path.relative(fx.root, new URL(l.uri).pathname)}:${l.range.start.line + 1}:${l.range.start.character + 1}`)),
    ].sort();
    expect(r.references.map((x: ReferenceEntry) => `${x.file}:${x.line}:${x.column}`).sort()).toEqual(rawKeys);
  });

  it('marks writes (lexical check: tsserver highlight kinds are not trustworthy)', async () => {
    const r = await fx.run('find_references', { symbol: 'User.loginCount' });
    const f = 'src/models/user.ts';
    expect(r.references.map((x: ReferenceEntry) => [x.line, x.isWrite, x.container])).toEqual([
      [lineOf(fx.root, f, 'private loginCount = 0'), true, 'User'],
      [lineOf(fx.root, f, 'this.loginCount += 1'), true, 'User.login'],
      [lineOf(fx.root, f, 'return this.loginCount'), false, 'User.login'],
    ]);
  });

  it('cuts the list at max_results, keeps the total, and says so in _meta', async () => {
    const r = await fx.run('find_references', { symbol: 'User', kind: 'class', max_results: 4 });
    expect([r.total, r.references.length, r._meta.truncated]).toEqual([13, 4, true]);
    expect(r._meta.limits_hit).toEqual([{ limit: 'max_results', value: 4, detail: '13 references, 4 shown' }]);
    const all = await fx.run('find_references', { symbol: 'User', kind: 'class', include_declaration: false });
    expect([all.total, all._meta.truncated]).toEqual([12, false]);
  });
});

describe('find_callers / find_callees', () => {
  it('callers of formatName (EXPECTED.md), one level', async () => {
    const r = await fx.run('find_callers', { symbol: 'formatName' });
    expect(treeText(r.root)).toBe(
      ['formatName src/util/strings.ts:7', '  class User src/models/user.ts:7 @21', '  function summarizeUsers src/services/report.ts:12 @15'].join('\n'),
    );
  });

  it('a depth-3 tree reaches main through the chain main → buildReport → summarizeUsers → formatName', async () => {
    const r = await fx.run('find_callers', { symbol: 'formatName', depth: 3 });
    expect(treeText(r.root)).toBe(
      [
        'formatName src/util/strings.ts:7',
        '  class User src/models/user.ts:7 @21',
        '    function main src/app.ts:7 @9',
        '    method fromFullName src/models/user.ts:41 @43',
        '      function main src/app.ts:7 @10',
        '  function summarizeUsers src/services/report.ts:12 @15',
        '    function buildReport src/services/report.ts:6 @7',
        '      function main src/app.ts:7 @12',
        '      function printEmptyReport src/app.ts:16 @17',
      ].join('\n'),
    );
    const cut = await fx.run('find_callers', { symbol: 'formatName', depth: 3, max_results: 3 });
    expect(cut._meta.truncated).toBe(true);
    expect(treeText(cut.root).split('\n')).toHaveLength(4);
  });

  it('callees of buildReport, library calls counted but not listed; callees of capitalize twice at one line', async () => {
    const r = await fx.run('find_callees', { symbol: 'buildReport' });
    expect(treeText(r.root)).toBe(
      ['buildReport src/services/report.ts:6', '  method all src/services/registry.ts:20 @7', '  function summarizeUsers src/services/report.ts:12 @7'].join(
        '\n',
      ),
    );
    expect(r._meta.warnings).toEqual(['1 call(s) to code outside the workspace (standard library, dependencies) left out']);
    const f = await fx.run('find_callees', { symbol: 'formatName' });
    expect(f.root.calls.map((c: CallNode) => [c.name, c.call_sites!.map((s: CallSite) => `${s.line}:${s.column}`)])).toEqual([
      ['capitalize', ['8:13', '8:34']],
    ]);
  });

  it('marks a cycle instead of expanding it again (isEven ↔ isOdd)', async () => {
    const f = 'src/util/parity.ts';
    const even = lineOf(fx.root, f, 'export function isEven');
    const odd = lineOf(fx.root, f, 'export function isOdd');
    const r = await fx.run('find_callees', { symbol: 'isEven', depth: 4 });
    expect(treeText(r.root)).toBe(
      [`isEven ${f}:${even}`, `  function isOdd ${f}:${odd} @${even + 1}`, `    function isEven ${f}:${even} @${odd + 1} cycle`].join('\n'),
    );
    const c = await fx.run('find_callers', { symbol: 'isOdd', depth: 5 });
    expect(treeText(c.root)).toBe(
      [`isOdd ${f}:${odd}`, `  function isEven ${f}:${even} @${even + 1}`, `    function isOdd ${f}:${odd} @${odd + 1} cycle`].join('\n'),
    );
  });

  it('walks a deep callee tree from main down to capitalize', async () => {
    const r = await fx.run('find_callees', { symbol: 'main', depth: 5 });
    const text = treeText(r.root);
    expect(text).toContain('      function formatName src/util/strings.ts:7');
    expect(text).toContain('        function capitalize src/util/strings.ts:12 @8');
  });
});

describe('get_symbol and get_symbols take a name, a qualified name, an id or a line', () => {
  it('every form gives the same exact source, from the catalog', async () => {
    const byId = await fx.run('get_symbol', { symbol_id: 'src/util/strings.ts::formatName#function' });
    expect(byId.source).toMatch(/^export function formatName/);
    for (const input of [{ symbol: 'formatName' }, { symbol: 'src/util/strings.ts::formatName#function' }, { file: 'src/util/strings.ts', line: 8 }]) {
      const r = await fx.run('get_symbol', input);
      expect([r.symbol.symbol_id, r.source]).toEqual([byId.symbol.symbol_id, byId.source]);
    }
    const member = await fx.run('get_symbol', { symbol: 'User.describe' });
    expect(member.symbol.symbol_id).toBe('src/models/user.ts::User.describe#method');
    // one target: a tie stays AMBIGUOUS_SYMBOL
    expect((await fx.runError('get_symbol', { symbol: 'describe' })).code).toBe('AMBIGUOUS_SYMBOL');
    const many = await fx.run('get_symbols', { symbols: ['formatName', 'src/util/strings.ts::capitalize#function', 'describe'] });
    expect(many.symbols.map((x: { symbol: { name: string } }) => x.symbol.name)).toEqual(['formatName', 'capitalize']);
    expect(many.errors).toEqual([expect.objectContaining({ symbol: 'describe', code: 'AMBIGUOUS_SYMBOL' })]);
  });
});

describe('a name several declarations share equally', () => {
  it('find_definition answers the tied declarations ranked, with the count; operations needing one target keep AMBIGUOUS_SYMBOL', async () => {
    const r = await fx.run('find_definition', { symbol: 'describe' });
    expect([r.found, r.tied, r.total]).toEqual([true, true, 3]);
    // ranked as the AMBIGUOUS_SYMBOL candidates are, each a declaration with its id and preview
    expect(r.definitions.map((d: { symbol_id: string; file: string; line: number }) => [d.symbol_id, d.file])).toEqual([
      ['src/models/shape.ts::Shape.describe#method', 'src/models/shape.ts'],
      ['src/models/types.ts::Describable.describe#method', 'src/models/types.ts'],
      ['src/models/user.ts::User.describe#method', 'src/models/user.ts'],
    ]);
    for (const d of r.definitions) expect(d.preview.lines.join('\n')).toContain('describe');
    expect(r.definitions.map((d: { container: string }) => d.container)).toEqual(['Shape', 'Describable', 'User']);
    expect(r._meta.warnings.join(' ')).toMatch(/3 declarations named describe tie/);
    expect((await fx.runError('find_definition', { symbol: 'describe', strict: true })).code).toBe('AMBIGUOUS_SYMBOL');
    expect((await fx.runError('find_references', { symbol: 'describe' })).code).toBe('AMBIGUOUS_SYMBOL');
  });
});

describe('target errors', () => {
  it('AMBIGUOUS_SYMBOL lists candidates with symbol ids; asking again by id works', async () => {
    const e = await fx.runError('find_references', { symbol: 'describe' });
    expect(e.code).toBe('AMBIGUOUS_SYMBOL');
    const candidates = e.details!.candidates as ListedSymbol[];
    expect(candidates.map((c) => [c.symbol_id, c.kind, c.file])).toEqual([
      ['src/models/shape.ts::Shape.describe#method', 'method', 'src/models/shape.ts'],
      ['src/models/types.ts::Describable.describe#method', 'method', 'src/models/types.ts'],
      ['src/models/user.ts::User.describe#method', 'method', 'src/models/user.ts'],
    ]);
    const r = await fx.run('find_references', { symbol_id: candidates[0].symbol_id });
    expect(r.total).toBe(3);
  });

  it('SYMBOL_NOT_FOUND, FILE_NOT_FOUND, PATH_OUTSIDE_WORKSPACE, INVALID_INPUT', async () => {
    expect((await fx.runError('find_definition', { symbol: 'NoSuchThing' })).code).toBe('SYMBOL_NOT_FOUND');
    const nf = await fx.runError('find_definition', { symbol: 'Nope.formatName' });
    expect([nf.code, nf.details!.suggestions]).toEqual(['SYMBOL_NOT_FOUND', ['formatName']]);
    expect((await fx.runError('find_references', { file: 'src/missing.ts', line: 1 })).code).toBe('FILE_NOT_FOUND');
    expect((await fx.runError('find_callers', { file: '../../package.json', line: 1 })).code).toBe('PATH_OUTSIDE_WORKSPACE');
    expect((await fx.runError('get_file_outline', { file: '/etc/passwd' })).code).toBe('PATH_OUTSIDE_WORKSPACE');
    expect((await fx.runError('find_definition', { file: 'src/app.ts', line: 10_000 })).code).toBe('INVALID_INPUT');
    expect((await fx.runError('find_definition', { symbol: 'main', file: 'src/app.ts', line: 1 })).code).toBe('INVALID_INPUT');
    expect((await fx.runError('find_callers', { symbol: 'main', depth: 6 })).code).toBe('INVALID_INPUT');
  });
});

describe('open_at / list_workspaces', () => {
  it('opens lines around a line with the enclosing symbol; refuses out-of-range lines', async () => {
    const line = lineOf(fx.root, 'src/app.ts', 'return buildReport(users)');
    const r = await fx.run('open_at', { file: 'src/app.ts', line, context_lines: 1 });
    expect([r.start_line, r.end_line, r.lines.length, r.symbol]).toEqual([
      line - 1,
      line + 1,
      3,
      { name: 'main', kind: 'function', qualified_name: 'main', start_line: lineOf(fx.root, 'src/app.ts', 'export function main'), end_line: line + 1 },
    ]);
    expect((await fx.runError('open_at', { file: 'src/app.ts', line: 0 })).code).toBe('INVALID_INPUT');
    expect((await fx.runError('open_at', { file: 'src/app.ts', line: 1, context_lines: 51 })).code).toBe('INVALID_INPUT');
  });

  it('lists the workspace with its running TypeScript server', async () => {
    const r = await fx.run('list_workspaces');
    const ws = r.workspaces.find((w: WorkspaceInfo) => w.root === fx.root);
    expect(ws.languages).toContain('typescript');
    expect(ws.servers.map((s: WorkspaceInfo['servers'][number]) => [s.id, s.state, s.generation, s.crashes, typeof s.pid])).toEqual([
      ['typescript-language-server', 'ready', 1, 0, 'number'],
    ]);
  });
});
