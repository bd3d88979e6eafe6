// The grammar-only profiles' declarations, read through the real tree-sitter grammars as the syntax
// cataloger reads them (ids `path::Qualified.name#kind`): what error recovery around unexpanded C++
// macros made of a header, and the declarations a profile's query left out.
import { describe, expect, it } from 'vitest';
import { syntaxEntry } from '../../src/service/cataloging/syntax-entry.js';

async function ids(rel: string, text: string): Promise<string[]> {
  const bytes = Buffer.from(text);
  const entry = await syntaxEntry({ rel, abs: `/ws/${rel}`, root: '/ws', bytes, size: bytes.length, mtimeMs: 0 });
  return entry!.symbols.map((s) => s.symbol_id.slice(rel.length + 2));
}

describe('C++ declarations under a library\'s macros', () => {
  const HEADER = [
    'LIB_BEGIN_NAMESPACE',
    '',
    'class LIB_EXPORT Widget : public Base {',
    'public:',
    '    explicit Widget(int x);',
    '    LIB_DEPRECATED void old();',
    '    int size() const;',
    'private:',
    '    int count_;',
    '};',
    '',
    'namespace detail {',
    'struct Helper { int v; };',
    '}',
    '',
    'enum class Color { Red, Green };',
    '',
    'class LIB_EXPORT // exported',
    'Gadget {',
    '    void run();',
    '};',
    '',
    'void work() {',
    '    LIB_TRY {',
    '        run();',
    '    } LIB_CATCH(std::exception) {',
    '    }',
    '}',
    '',
    'LIB_END_NAMESPACE',
    '',
  ].join('\n');

  it('reads a class under export macros as the class, its members as members', async () => {
    expect(await ids('lib/widget.h', HEADER)).toEqual([
      'Widget#class',
      'Widget.Widget#method',
      'Widget.old#method',
      'Widget.size#method',
      'Widget.count_#field',
      'detail#namespace',
      'detail.Helper#struct',
      'detail.Helper.v#field',
      'Color#enum',
      'Color.Red#enum_member',
      'Color.Green#enum_member',
      'Gadget#class',
      'Gadget.run#method',
      'work#function',
    ]);
  });

  it('reads declarations after libstdc++-style attribute macros by their names, never a return type and a name as one', async () => {
    const text = [
      'namespace std _GLIBCXX_VISIBILITY(default)',
      '{',
      '_GLIBCXX_BEGIN_NAMESPACE_VERSION',
      '  template<typename _IIter, typename _OIter>',
      '    _GLIBCXX20_CONSTEXPR',
      '    _OIter',
      '    copy(_IIter, _IIter, _OIter);',
      '',
      '  struct _List_node_header',
      '  {',
      '      void',
      '      _M_init() _GLIBCXX_NOEXCEPT',
      '      { }',
      '  };',
      '_GLIBCXX_END_NAMESPACE_VERSION',
      '}',
      '',
    ].join('\n');
    expect(await ids('bits/algo.h', text)).toEqual(['std#namespace', 'std.copy#function', 'std._List_node_header#struct', 'std._List_node_header._M_init#method']);
  });

  it('keeps a type in capitals that parses, and operator and qualified names as clangd writes them', async () => {
    const text = ['struct FILE_INFO { int size; };', 'FILE_INFO *open_info(const char *path);', 'struct Box {', '  bool operator==(const Box &o) const;', '  ~Box();', '};', 'Box::~Box() {}', ''].join('\n');
    expect(await ids('src/box.cpp', text)).toEqual(['FILE_INFO#struct', 'FILE_INFO.size#field', 'open_info#function', 'Box#struct', 'Box.operator==#method', 'Box.~Box#method', 'Box::~Box#method']);
  });
});

describe('declarations a profile\'s query left out', () => {
  it('Ruby: `alias` and `alias_method` are methods of their class, named by the new name', async () => {
    const text = ['class Cart', '  def total; end', '  alias sum total', '  alias_method :amount, :total', '  alias_method "grand_total", "total"', '  alias $out $stdout', 'end', ''].join('\n');
    expect(await ids('lib/cart.rb', text)).toEqual(['Cart#class', 'Cart.total#method', 'Cart.sum#method', 'Cart.amount#method', 'Cart.grand_total#method']);
  });

  it('Java: an annotation type\'s elements are its methods', async () => {
    const text = ['package com.example;', '', 'public @interface Route {', '    String value() default "";', '    int priority();', '    int MAX = 10;', '}', ''].join('\n');
    expect(await ids('src/com/example/Route.java', text)).toEqual(['Route#interface', 'Route.value#method', 'Route.priority#method', 'Route.MAX#constant']);
  });
});
