// Hover strings below were captured from gopls 0.16.1 and 0.22.0 on fixtures/go-app with scripts/capture-hover.ts.
import { describe, expect, it } from 'vitest';

import { fileImports, goDocAbove, trailingComment } from '../../src/adapters/go/package.js';
import { splitGoMethodName } from '../../src/adapters/servers/go/adapter.js';
import { parseGoFuncSignature, parseGoHover, parseGoParams, parseGoStructLine } from '../../src/adapters/servers/go/signature.js';

const ROUTER_HOVER =
  '```go\ntype Router struct { // size=64 (0x40)\n\tbase.Logger\n\troutes map[string]Handler\n\tPrefix string `json:"prefix" yaml:"prefix"`\n}\n```\n\nRouter dispatches requests to the handler registered for their path.\n\n\n```go\n// Embedded fields:\nName string // through Logger \n```\n\n```go\nfunc (r Router) Count() int\nfunc (r *Router) Dispatch(req *Request) (handled bool, err error)\nfunc (r *Router) Handle(path string, h Handler) error\nfunc (l base.Logger) Lines() []string\nfunc (l *base.Logger) Logf(format string, args ...any)\nfunc (r *Router) register(path string, h Handler)\n```\n\n[`router.Router` on pkg.go.dev](https://pkg.go.dev/example.com/goapp/router#Router)';

const HANDLE_HOVER =
  '```go\nfunc (r *Router) Handle(path string, h Handler) error\n```\n\nHandle registers h for path.\n\n\n[`(router.Router).Handle` on pkg.go.dev](https://pkg.go.dev/example.com/goapp/router#Router.Handle)';

const ROUTER_HOVER_022 =
  '```go\ntype Router struct { // size=64 (0x40)\n\tbase.Logger\n\troutes map[string]Handler\n\tPrefix string `json:"prefix" yaml:"prefix"`\n}\n```\n\n---\n\nRouter dispatches requests to the handler registered for their path.\n\n\n```go\n// Embedded fields:\nName string // through Logger \n```\n\n```go\nfunc (r Router) Count() int\nfunc (r *Router) Dispatch(req *Request) (handled bool, err error)\nfunc (r *Router) Handle(path string, h Handler) error\nfunc (l base.Logger) Lines() []string\nfunc (l *base.Logger) Logf(format string, args ...any)\nfunc (r *Router) register(path string, h Handler)\n```\n\n---\n\n[`router.Router` on pkg.go.dev](https://pkg.go.dev/example.com/goapp/router#Router)';

const SERVE_HOVER_022 =
  '```go\nfunc (Handler) Serve(req *Request) error\n```\n\n---\n\nServe answers the request.\n\n\n---\n\n[`(router.Handler).Serve` on pkg.go.dev](https://pkg.go.dev/example.com/goapp/router#Handler.Serve)';

describe('parseGoHover', () => {
  it('splits declaration, doc and method set, dropping layout comments and the pkg.go.dev link', () => {
    const h = parseGoHover(ROUTER_HOVER);
    expect(h.declaration).toBe('type Router struct {\n\tbase.Logger\n\troutes map[string]Handler\n\tPrefix string `json:"prefix" yaml:"prefix"`\n}');
    expect(h.doc).toBe('Router dispatches requests to the handler registered for their path.');
    expect(h.methodSet).toEqual([
      'func (r Router) Count() int',
      'func (r *Router) Dispatch(req *Request) (handled bool, err error)',
      'func (r *Router) Handle(path string, h Handler) error',
      'func (l base.Logger) Lines() []string',
      'func (l *base.Logger) Logf(format string, args ...any)',
      'func (r *Router) register(path string, h Handler)',
    ]);
  });

  it('reads a function hover and a hover without doc', () => {
    expect(parseGoHover(HANDLE_HOVER)).toEqual({
      declaration: 'func (r *Router) Handle(path string, h Handler) error',
      doc: 'Handle registers h for path.',
      methodSet: [],
    });
    expect(parseGoHover('```go\nfunc (r *Router) register(path string, h Handler)\n```')).toEqual({
      declaration: 'func (r *Router) register(path string, h Handler)',
      methodSet: [],
    });
    expect(parseGoHover(undefined)).toEqual({ methodSet: [] });
  });

  it('reads gopls 0.22 hovers, whose parts are separated by --- rules', () => {
    expect(parseGoHover(ROUTER_HOVER_022)).toEqual(parseGoHover(ROUTER_HOVER));
    expect(parseGoHover(SERVE_HOVER_022)).toEqual({
      declaration: 'func (Handler) Serve(req *Request) error',
      doc: 'Serve answers the request.',
      methodSet: [],
    });
    expect(parseGoHover('```go\nfunc f()\n```\n\n---\n\n[`p.f` on pkg.go.dev](https://pkg.go.dev/p#f)')).toEqual({ declaration: 'func f()', methodSet: [] });
  });
});

describe('parseGoFuncSignature', () => {
  it('method with pointer receiver', () => {
    expect(parseGoFuncSignature('func (r *Router) Handle(path string, h Handler) error')).toEqual({
      name: 'Handle',
      receiver: '*Router',
      receiverName: 'r',
      parameters: [
        { name: 'path', type: 'string' },
        { name: 'h', type: 'Handler' },
      ],
      returns: [{ type: 'error' }],
    });
  });

  it('named results, value receiver, interface method receiver without a name', () => {
    expect(parseGoFuncSignature('func (r *Router) Dispatch(req *Request) (handled bool, err error)')?.returns).toEqual([
      { name: 'handled', type: 'bool' },
      { name: 'err', type: 'error' },
    ]);
    const count = parseGoFuncSignature('func (r Router) Count() int');
    expect(count?.receiver).toBe('Router');
    expect(count?.parameters).toEqual([]);
    const serve = parseGoFuncSignature('func (Handler) Serve(req *Request) error');
    expect(serve?.receiver).toBe('Handler');
    expect(serve?.receiverName).toBeUndefined();
  });

  it('generics, variadics, grouped names, func-typed params and unnamed results', () => {
    expect(parseGoFuncSignature('func Map[T, U any](xs []T, f func(T) U) []U')).toEqual({
      name: 'Map',
      typeParams: 'T, U any',
      parameters: [
        { name: 'xs', type: '[]T' },
        { name: 'f', type: 'func(T) U' },
      ],
      returns: [{ type: '[]U' }],
    });
    expect(parseGoFuncSignature('func (s *Stack[T]) Pop() (v T, ok bool)')?.receiver).toBe('*Stack[T]');
    expect(parseGoFuncSignature('func (l *Logger) Logf(format string, args ...any)')?.parameters).toEqual([
      { name: 'format', type: 'string' },
      { name: 'args', type: '...any', variadic: true },
    ]);
    expect(parseGoParams('a, b int, c string')).toEqual([
      { name: 'a', type: 'int' },
      { name: 'b', type: 'int' },
      { name: 'c', type: 'string' },
    ]);
    expect(parseGoFuncSignature('func Start(prefix string) (*router.Router, error)')?.returns).toEqual([{ type: '*router.Router' }, { type: 'error' }]);
    expect(parseGoFuncSignature('type X int')).toBeUndefined();
  });
});

describe('struct lines, imports, docs, method names', () => {
  it('parses fields with tags and embedded fields', () => {
    expect(parseGoStructLine('\tPrefix string `json:"prefix" yaml:"prefix"`')).toEqual([
      { name: 'Prefix', type: 'string', tag: 'json:"prefix" yaml:"prefix"', embedded: false },
    ]);
    expect(parseGoStructLine('\tbase.Logger')).toEqual([{ name: 'Logger', type: 'base.Logger', embedded: true }]);
    expect(parseGoStructLine('\t*Base // shared')).toEqual([{ name: 'Base', type: '*Base', embedded: true }]);
    expect(parseGoStructLine('\tA, B int')).toEqual([
      { name: 'A', type: 'int', embedded: false },
      { name: 'B', type: 'int', embedded: false },
    ]);
    expect(parseGoStructLine('\troutes map[string]Handler // by path')).toEqual([{ name: 'routes', type: 'map[string]Handler', embedded: false }]);
    expect(parseGoStructLine('\t// a comment')).toEqual([]);
  });

  it('reads imports, doc comments and trailing comments', () => {
    const lines = ['package router', '', 'import (', '\t"errors"', '\tb "example.com/goapp/base"', ')', '', '// New makes one.', '// Really.', 'func New() {}'];
    expect([...fileImports(lines)]).toEqual([
      ['errors', 'errors'],
      ['b', 'example.com/goapp/base'],
    ]);
    expect(goDocAbove(lines, 9)).toBe('New makes one.\nReally.');
    expect(goDocAbove(lines, 2)).toBeUndefined();
    expect(trailingComment('\tName string `json:"a//b"` // the name')).toBe('the name');
    expect(trailingComment('\tName string')).toBeUndefined();
  });

  it('splits gopls method symbol names', () => {
    expect(splitGoMethodName('(*Router).Handle')).toEqual({ receiverType: 'Router', pointer: true, method: 'Handle' });
    expect(splitGoMethodName('(Router).Count')).toEqual({ receiverType: 'Router', pointer: false, method: 'Count' });
    expect(splitGoMethodName('(*Stack[T]).Push')).toEqual({ receiverType: 'Stack', pointer: true, method: 'Push' });
    expect(splitGoMethodName('New')).toBeUndefined();
  });
});
