// Go through gopls on fixtures/go-app (truth in fixtures/go-app/EXPECTED.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { LspgateError } from '../../src/errors/errors.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { FIXTURES, openFixture, withoutTiming } from '../helpers/gateway.js';
import { goAvailable } from '../helpers/go.js';
import type { CallNode, CallSite, ExportedSymbol, FieldDescriptor, FunctionDescriptor, ReferenceEntry } from '../helpers/results.js';

describe('Go without gopls', () => {
  it('answers SERVER_NOT_INSTALLED with the install hint when the gopls command is missing; the outline answers from syntax', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
    const override = path.join(dir, 'servers.json');
    fs.writeFileSync(override, JSON.stringify({ servers: [{ id: 'gopls', command: 'gopls-that-does-not-exist', extraPath: [] }] }));
    const gateway = await Gateway.create({ root: path.join(FIXTURES, 'go-app'), cacheDir: dir, serversFiles: [override] });
    afterAll(() => gateway.close());
    const err = await gateway.run('find_references', { file: 'router/router.go', line: 38, column: 6 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LspgateError);
    expect((err as LspgateError).code).toBe('SERVER_NOT_INSTALLED');
    expect(JSON.stringify((err as LspgateError).details)).toContain('scripts/install-go.sh');
    // the outline needs no server: the syntax tier answers, and says why the server did not
    const outline = (await gateway.run('get_file_outline', { file: 'router/router.go', output_format: 'json' })).result as unknown as {
      _meta: { index_state: string; warnings?: string[] };
      symbols: { name: string }[];
    };
    expect(outline._meta.index_state).toBe('syntax');
    expect(outline.symbols.map((s) => s.name)).toEqual(expect.arrayContaining(['Handler', 'Router', 'New']));
    expect(outline._meta.warnings?.join(' ')).toContain('SERVER_NOT_INSTALLED');
    expect(outline._meta.warnings?.join(' ')).toContain('scripts/install-go.sh');
    // a definition asked by name is the catalog's declaration, labelled syntax, with the install hint
    const def = (await gateway.run('find_definition', { symbol: 'Router', output_format: 'json' })).result as unknown as {
      _meta: { index_state: string; warnings?: string[] };
      definitions: { file: string; name: string }[];
    };
    expect(def._meta.index_state).toBe('syntax');
    expect(def.definitions.map((d) => [d.file, d.name])).toEqual([['router/router.go', 'Router']]);
    expect(def._meta.warnings?.join(' ')).toContain('scripts/install-go.sh');
  });

  it('a symbol name asked while go itself is missing is SERVER_NOT_INSTALLED, not SYMBOL_NOT_FOUND', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
    const override = path.join(dir, 'servers.json');
    fs.writeFileSync(override, JSON.stringify({ servers: [{ id: 'gopls', requires: ['go-that-does-not-exist'] }] }));
    const gateway = await Gateway.create({ root: path.join(FIXTURES, 'go-app'), cacheDir: dir, serversFiles: [override] });
    afterAll(() => gateway.close());
    const err = await gateway.run('find_type_definition', { type_name: 'Router' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LspgateError);
    expect((err as LspgateError).code).toBe('SERVER_NOT_INSTALLED');
    expect((err as LspgateError).message).toContain('go-that-does-not-exist');
    expect((err as LspgateError).message).toContain('scripts/install-go.sh');
    // nothing was spawned: the session never got past idle
    expect(gateway.context.broker.info().map((i) => [i.state, i.pid, i.generation])).toEqual([['idle', undefined, 0]]);
  });
});

describe.runIf(goAvailable)('Go through gopls', async () => {
  const fx = await openFixture('go-app');

  it('find_type_definition: struct with tagged and embedded fields, methods from both files, promoted methods', async () => {
    const r = withoutTiming(await fx.run('find_type_definition', { type_name: 'Router' }));
    expect(r).toMatchObject({
      language: 'go',
      kind: 'struct',
      name: 'Router',
      package: 'router',
      full_name: 'example.com/goapp/router.Router',
      signature: 'type Router struct',
      description: 'Router dispatches requests to the handler registered for their path.',
      location: { file_path: 'router/router.go', start_line: 25, end_line: 29 },
      relations: [{ type: 'embeds', target: 'base.Logger', target_full_name: 'example.com/goapp/base.Logger' }],
      tags: ['exported'],
      metadata: { import_path: 'example.com/goapp/router' },
    });
    expect(r.fields.map((f: FieldDescriptor) => ({ ...f, location: undefined }))).toEqual([
      { name: 'Logger', type: 'base.Logger', visibility: 'public', embedded: true, location: undefined },
      { name: 'routes', type: 'map[string]Handler', visibility: 'private', location: undefined },
      { name: 'Prefix', type: 'string', visibility: 'public', tag: 'json:"prefix" yaml:"prefix"', location: undefined },
    ]);
    expect(r.methods.map((m: FunctionDescriptor) => `${m.receiver}.${m.name}@${m.location?.file_path ?? 'promoted'}`)).toEqual([
      '*Router.Dispatch@router/dispatch.go',
      'Router.Count@router/dispatch.go',
      '*Router.Handle@router/router.go',
      '*Router.register@router/router.go',
      'base.Logger.Lines@promoted',
      '*base.Logger.Logf@promoted',
    ]);
  });

  it('find_type_definition: interface methods and generic struct', async () => {
    const h = await fx.run('find_type_definition', { type_name: 'Handler' });
    expect(h.kind).toBe('interface');
    expect(h.methods.map((m: FunctionDescriptor) => [m.name, m.signature, m.is_abstract, m.description])).toEqual([
      ['Serve', 'func (Handler) Serve(req *Request) error', true, 'Serve answers the request.'],
      ['Name', 'func (Handler) Name() string', true, 'Name identifies the handler in logs.'],
    ]);
    const s = await fx.run('find_type_definition', { type_name: 'Stack' });
    expect([s.signature, s.tags, s.metadata.type_params]).toEqual(['type Stack[T any] struct', ['exported', 'generic'], 'T any']);
    expect(s.methods.map((m: FunctionDescriptor) => m.receiver + '.' + m.name)).toEqual(['*Stack[T].Push', '*Stack[T].Pop', '*Stack[T].Peek']);
    // The doc comment as written: gopls's hover turns `[Stack.Pop]` into a pkg.go.dev link and escapes brackets.
    expect(s.methods[2].description).toBe(
      'Peek returns the top value without removing it, like [Stack.Pop] but leaving the stack as it was.\n\nOn an empty stack it returns the zero value of T and false.',
    );
  });

  it('get_function_details: method with named results, generic function, variadic', async () => {
    const d = withoutTiming(await fx.run('get_function_details', { function_name: 'Dispatch' }));
    delete d.symbol_id;
    expect(d).toEqual({
      language: 'go',
      kind: 'method',
      name: 'Dispatch',
      namespace: 'router',
      receiver: '*Router',
      signature: 'func (r *Router) Dispatch(req *Request) (handled bool, err error)',
      description: 'Dispatch finds the handler for req and runs it.',
      location: { file_path: 'router/dispatch.go', uri: expect.stringMatching(/^file:\/\/.*dispatch\.go$/), start_line: 4, end_line: 10 },
      parameters: [{ name: 'req', type: '*Request' }],
      returns: [
        { name: 'handled', type: 'bool' },
        { name: 'err', type: 'error' },
      ],
      visibility: 'public',
      metadata: { import_path: 'example.com/goapp/router' },
    });
    const m = await fx.run('get_function_details', { function_name: 'Map' });
    expect([m.kind, m.parameters, m.returns, m.tags]).toEqual([
      'function',
      [
        { name: 'xs', type: '[]T' },
        { name: 'f', type: 'func(T) U' },
      ],
      [{ type: '[]U' }],
      ['generic'],
    ]);
    const l = await fx.run('get_function_details', { function_name: 'Logf' });
    expect(l.parameters).toEqual([
      { name: 'format', type: 'string' },
      { name: 'args', type: '...any', variadic: true },
    ]);
  });

  it('list_package_exports by import path and by directory: only capitalised names', async () => {
    const byPath = await fx.run('list_package_exports', { package: 'example.com/goapp/router' });
    expect(byPath.files).toEqual(['router/dispatch.go', 'router/router.go']);
    expect(byPath.symbols.map((s: ExportedSymbol) => s.name).sort()).toEqual([
      'Count',
      'Dispatch',
      'ErrDuplicate',
      'Handle',
      'Handler',
      'MaxRoutes',
      'New',
      'Request',
      'Router',
    ]);
    const byDir = await fx.run('list_package_exports', { package: 'router' });
    // router_test.go is in the directory but not in the package's API
    expect(byDir.files).toEqual(['router/dispatch.go', 'router/router.go']);
    expect(byDir.symbols.map((s: ExportedSymbol) => s.name)).toEqual(byPath.symbols.map((s: ExportedSymbol) => s.name));
  });

  it('find_references and find_callers across packages match the fixture truth', async () => {
    const refs = await fx.run('find_references', { symbol: 'Router.Handle' });
    expect(refs.references.map((r: ReferenceEntry) => `${r.file}:${r.line}:${r.container ?? ''}`)).toEqual([
      'router/router.go:43:',
      'service/service.go:20:Start',
      'service/service.go:29:registerAll',
    ]);
    const callers = await fx.run('find_callers', { symbol: 'Router.Handle' });
    expect(callers.root.calls.map((c: CallNode) => `${c.name}@${c.file}:${c.call_sites!.map((s: CallSite) => s.line).join(',')}`)).toEqual([
      'Start@service/service.go:20',
      'registerAll@service/service.go:29',
    ]);
    const deep = await fx.run('find_callers', { symbol: 'New', package: 'router', depth: 2 });
    expect(deep.root.calls.map((c: CallNode) => [c.name, (c.children ?? []).map((k: CallNode) => k.name)])).toEqual([['Start', ['main']]]);
    expect(deep._meta.index_state).toBe('ready');
  });

  it("find_callers names methods as the catalog does (gopls's call hierarchy says Function, `register`)", async () => {
    const r = await fx.run('find_callers', { symbol: 'Router.register' });
    const label = (n: CallNode) => `${n.kind} ${n.qualified_name ?? n.name}`;
    expect([label(r.root), ...r.root.calls.map(label)]).toEqual(['method Router.register', 'method Router.Handle']);
    expect(await fx.runText('find_callers', { symbol: 'Router.register' })).toContain('- method **Router.Handle** — router/router.go:43');
  });
});
