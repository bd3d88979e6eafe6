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

describe("C++ declarations under a library's macros", () => {
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
    expect(await ids('bits/algo.h', text)).toEqual([
      'std#namespace',
      'std.copy#function',
      'std._List_node_header#struct',
      'std._List_node_header._M_init#method',
    ]);
  });

  it('keeps a type in capitals that parses, and operator and qualified names as clangd writes them', async () => {
    const text = [
      'struct FILE_INFO { int size; };',
      'FILE_INFO *open_info(const char *path);',
      'struct Box {',
      '  bool operator==(const Box &o) const;',
      '  ~Box();',
      '};',
      'Box::~Box() {}',
      '',
    ].join('\n');
    expect(await ids('src/box.cpp', text)).toEqual([
      'FILE_INFO#struct',
      'FILE_INFO.size#field',
      'open_info#function',
      'Box#struct',
      'Box.operator==#method',
      'Box.~Box#method',
      'Box::~Box#method',
    ]);
  });
});

describe('C++ declarations libstdc++ writes that the outline lost', () => {
  it('reads fields and typedefs through pointers, references, arrays and function pointers', async () => {
    const text = [
      'struct Names {',
      '  const char* _M_am;',
      '  int _M_days[7];',
      '  Names& _M_self;',
      '  void (*_M_fn)(int);',
      '  void* _M_get();',
      '};',
      'typedef Node* _Link_type;',
      'typedef void (*event_callback)(int);',
      '',
    ].join('\n');
    expect(await ids('bits/names.h', text)).toEqual([
      'Names#struct',
      'Names._M_am#field',
      'Names._M_days#field',
      'Names._M_self#field',
      'Names._M_fn#field',
      'Names._M_get#method',
      '_Link_type#type',
      'event_callback#type',
    ]);
  });

  it('reads a member template returning a reference, and a conversion operator by its name', async () => {
    const text = [
      'struct Any {',
      '  template<typename _Tp>',
      '    _Tp&',
      '    _M_access() noexcept',
      '    { return *static_cast<_Tp*>(_M_p); }',
      '  operator bool() const noexcept;',
      '  explicit operator int*() const { return 0; }',
      '};',
      '',
    ].join('\n');
    expect(await ids('bits/any.h', text)).toEqual(['Any#struct', 'Any._M_access#method', 'Any.operator bool#method', 'Any.operator int*#method']);
  });

  it('reads a header whose #if and #else branches open a namespace differently, and a class tagged by a macro inside a class', async () => {
    const text = [
      '#if ! _GLIBCXX_USE_CXX11_ABI',
      '# include "cow_string.h"',
      '#else',
      'namespace std _GLIBCXX_VISIBILITY(default)',
      '{',
      '  class ios_base',
      '  {',
      '  public:',
      '    class _GLIBCXX_ABI_TAG_CXX11 failure : public system_error',
      '    {',
      '    public:',
      '      explicit',
      '      failure(const string& __str);',
      '    };',
      '  protected:',
      '    streamsize _M_precision;',
      '  };',
      '} // namespace std',
      '#endif',
      '',
    ].join('\n');
    expect(await ids('bits/ios_base.h', text)).toEqual([
      'std#namespace',
      'std.ios_base#class',
      'std.ios_base.failure#class',
      'std.ios_base.failure.failure#method',
      'std.ios_base._M_precision#field',
    ]);
  });

  it('lists no local of a function body that reads as a prototype or a definition (`unique_lock<mutex> __lock(m);`, `__catch(...) { }`)', async () => {
    const text = [
      'void _M_load(unsigned __mo)',
      '{',
      '  unique_lock<mutex> __lock(_M_mutex);',
      '  __try { run(__lock); }',
      '  __catch(...) { __throw_exception_again; }',
      '}',
      '',
    ].join('\n');
    expect(await ids('bits/futex.h', text)).toEqual(['_M_load#function']);
  });

  it('selects an out-of-line definition at its own name, on the line a tagger tags', async () => {
    const text = ['template<typename _Key>', '  _Hashtable<_Key>::', '  _Hashtable(size_type __n)', '  { }', ''].join('\n');
    const bytes = Buffer.from(text);
    const entry = await syntaxEntry({ rel: 'bits/h.h', abs: '/ws/bits/h.h', root: '/ws', bytes, size: bytes.length, mtimeMs: 0 });
    expect(entry!.symbols.map((s) => [s.name, s.selection_line])).toEqual([['_Hashtable<_Key>::_Hashtable', 3]]);
  });
});

describe('CSS rules', () => {
  it('lists a rule under each selector of its list, each spanning the rule', async () => {
    const text = ['.btn-primary, .btn .icon > span:hover {', '  color: red;', '}', ''].join('\n');
    expect(await ids('web/a.css', text)).toEqual(['.btn-primary#class', '.btn .icon > span:hover#class']);
  });

  it('reads the rules after a data URL continued over lines with a backslash', async () => {
    const text = [
      '.clip::before {',
      '    content: url(\'data:image/svg+xml,<svg width="21" \\',
      'xmlns="http://www.w3.org/2000/svg">\\',
      '<path d="M18 20h2"/></svg>\');',
      '}',
      '.after { display: block; }',
      '#last { color: red; }',
      '',
    ].join('\n');
    expect(await ids('web/b.css', text)).toEqual(['.clip::before#class', '.after#class', '#last#class']);
  });
});

describe("declarations a profile's query left out", () => {
  it('Ruby: `alias` and `alias_method` are methods of their class, named by the new name', async () => {
    const text = [
      'class Cart',
      '  def total; end',
      '  alias sum total',
      '  alias_method :amount, :total',
      '  alias_method "grand_total", "total"',
      '  alias $out $stdout',
      'end',
      '',
    ].join('\n');
    expect(await ids('lib/cart.rb', text)).toEqual(['Cart#class', 'Cart.total#method', 'Cart.sum#method', 'Cart.amount#method', 'Cart.grand_total#method']);
  });

  it('Ruby: `alias :new :old` with symbols is a method named by the new name', async () => {
    const text = ['class Visitor', '  def finished; end', '  alias :finished? :finished', '  alias :visit_Document :finished', 'end', ''].join('\n');
    expect(await ids('lib/visitor.rb', text)).toEqual([
      'Visitor#class',
      'Visitor.finished#method',
      'Visitor.finished?#method',
      'Visitor.visit_Document#method',
    ]);
  });

  it("Java: a local class and an anonymous class's members are not declarations of the file", async () => {
    const text = [
      'class Bits {',
      '    Iterator<Integer> iterator() {',
      '        class Local { int n; }',
      '        return new Iterator<>() {',
      '            int i;',
      '            public boolean hasNext() { return true; }',
      '        };',
      '    }',
      '    Bits() { Runnable r = new Runnable() { public void run() {} }; }',
      '}',
      '',
    ].join('\n');
    expect(await ids('src/Bits.java', text)).toEqual(['Bits#class', 'Bits.iterator#method', 'Bits.Bits#constructor']);
  });

  it("Java: an annotation type's elements are its methods", async () => {
    const text = [
      'package com.example;',
      '',
      'public @interface Route {',
      '    String value() default "";',
      '    int priority();',
      '    int MAX = 10;',
      '}',
      '',
    ].join('\n');
    expect(await ids('src/com/example/Route.java', text)).toEqual(['Route#interface', 'Route.value#method', 'Route.priority#method', 'Route.MAX#constant']);
  });
});
