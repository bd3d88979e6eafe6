// Target selection and symbol ids across languages (src/service/navigation/resolve.ts, src/service/symbol-ids.ts):
// `file` + `line` without a column names the outermost declaration on the line (pyright lists a
// function's parameters as child symbols on the `def` line); every symbol_id in any answer is the
// catalog's id (gopls names methods `(*Router).Dispatch`, the catalog `Router.Dispatch`).
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';
import { type DocumentSymbol, DocumentSymbolRequest } from 'vscode-languageserver-protocol';

import { openFixture } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';
import { lineOf } from '../helpers/positions.js';
import type { CallNode, DefinitionEntry, ExportedSymbol, ListedSymbol, OutlineSymbol } from '../helpers/results.js';

describe('file + line without a column (pyright, fixtures/py-app)', async () => {
  const fx = await openFixture('py-app');
  const greeter = 'app/services/greeter.py';
  const defLine = lineOf(fx.root, greeter, 'def greet(user: User)');

  it('the line of `def greet(user: User)` names greet, not its parameter', async () => {
    // The premise: pyright lists the parameter as a child symbol whose name is on that line.
    const abs = path.join(fx.root, greeter);
    const session = await fx.gateway.context.broker.sessionFor(abs, fx.root);
    await session.syncDocument(abs);
    await session.waitReady();
    const raw = (await session.request(DocumentSymbolRequest.type, { textDocument: { uri: pathToFileURL(abs).href } })) as DocumentSymbol[];
    const greetRaw = raw.find((s) => s.name === 'greet')!;
    expect(greetRaw.children?.map((c) => [c.name, c.selectionRange.start.line + 1])).toEqual([['user', defLine]]);

    const callers = await fx.run('find_callers', { file: greeter, line: defLine });
    expect(callers.root).toMatchObject({ name: 'greet', file: greeter, line: defLine });
    expect(callers.root.calls.map((c: CallNode) => `${c.name}@${c.file}`).sort()).toEqual(['greet_all@app/services/greeter.py', 'main@app/main.py']);

    const def = await fx.run('find_definition', { file: greeter, line: defLine });
    expect(def.definitions.map((d: DefinitionEntry) => [d.name, d.symbol_id])).toEqual([['greet', 'app/services/greeter.py::greet#function']]);
  });

  it('a line with only a parameter-less body still resolves to its enclosing function', async () => {
    const bodyLine = lineOf(fx.root, greeter, 'return [prefix + greet(u) for u in users]');
    const callees = await fx.run('find_callees', { file: greeter, line: bodyLine });
    expect(callees.root.name).toBe('greet_all');
  });
});

describe.runIf(goAvailable)('symbol ids are the catalog ids (gopls, fixtures/go-app)', async () => {
  const fx = await openFixture('go-app');

  it('list_package_exports, get_file_outline and find_definition give the ids search_symbols and get_function_details give', async () => {
    const exportsOf = await fx.run('list_package_exports', { package: 'example.com/goapp/router' });
    const dispatch = exportsOf.symbols.find((s: ExportedSymbol) => s.name === 'Dispatch');
    const details = await fx.run('get_function_details', { function_name: 'Dispatch' });
    expect(details.symbol_id).toBe('router/dispatch.go::Router.Dispatch#method');
    expect(dispatch.symbol_id).toBe(details.symbol_id);

    // Every exported id is a catalog id: get_symbol finds each one.
    for (const s of exportsOf.symbols) {
      const src = await fx.run('get_symbol', { symbol_id: s.symbol_id });
      expect(src.symbol.symbol_id).toBe(s.symbol_id);
    }

    const outline = await fx.run('get_file_outline', { file: 'router/dispatch.go', detail: 'full' });
    const ids = outline.symbols.map((s: OutlineSymbol) => s.symbol_id);
    expect(ids).toContain('router/dispatch.go::Router.Dispatch#method');
    expect(ids).toContain('router/dispatch.go::Router.Count#method');
    expect(ids.some((id: string) => id.includes('('))).toBe(false);

    const search = await fx.run('search_symbols', { query: 'Dispatch', kind: 'method' });
    expect(search.results.map((s: ListedSymbol) => s.symbol_id)).toContain(details.symbol_id);

    const line = lineOf(fx.root, 'router/dispatch.go', 'func (r *Router) Dispatch(');
    const def = await fx.run('find_definition', { file: 'router/dispatch.go', line });
    expect(def.definitions.map((d: DefinitionEntry) => d.symbol_id)).toEqual([details.symbol_id]);
    // The id found by line is accepted back as a target.
    const callers = await fx.run('find_callers', { symbol_id: def.definitions[0].symbol_id });
    expect(callers.root.name).toContain('Dispatch');
  });
});
