// Declarations inside function bodies, as universal-ctags and the languages' own outlines list them:
// nested under their function (ids `path::Qualified.name#kind`), never the body's locals. A Rust struct,
// its impl, an enum, a trait and a fn inside a fn (a closure's and a block's too); a C++ class or struct
// inside a function; Ruby defs and aliases inside a `class_eval` in a method; shell functions defined in a
// function's `if`, subshell or loop.
import { describe, expect, it } from 'vitest';

import { syntaxEntry } from '../../src/service/cataloging/syntax-entry.js';

async function ids(rel: string, text: string): Promise<string[]> {
  const bytes = Buffer.from(text);
  const entry = await syntaxEntry({ rel, abs: `/ws/${rel}`, root: '/ws', bytes, size: bytes.length, mtimeMs: 0 });
  return entry!.symbols.map((s) => s.symbol_id.slice(rel.length + 2));
}

describe('declarations inside function bodies', () => {
  it('Rust: items of a fn body, a closure and a block, nested under the fn; no `let`', async () => {
    const text = [
      '#[test]',
      'fn nested_in_test() {',
      '    struct Wrapper<T>(T);',
      '    impl<T> Wrapper<T> {',
      '        fn get(&self) -> &T { &self.0 }',
      '    }',
      '    type Alias = u8;',
      '    trait LocalTrait { fn x(&self); }',
      '    let closure = || {',
      '        struct InClosure;',
      '    };',
      '}',
      'fn with_block() -> i32 {',
      '    let v = {',
      '        fn in_block() -> i32 { 1 }',
      '        in_block()',
      '    };',
      '    v',
      '}',
      '',
    ].join('\n');
    expect(await ids('src/lib.rs', text)).toEqual([
      'nested_in_test#function',
      'nested_in_test.Wrapper#struct',
      'nested_in_test.impl Wrapper<T>#namespace',
      'nested_in_test.impl Wrapper<T>.get#method',
      'nested_in_test.Alias#type',
      'nested_in_test.LocalTrait#interface',
      'nested_in_test.LocalTrait.x#method',
      'nested_in_test.InClosure#struct',
      'with_block#function',
      'with_block.in_block#function',
    ]);
  });

  it('C++: a class and a struct inside a function, with their members; no local variable', async () => {
    const text = ['void outer() {', '  struct Local { int a; };', '  class K { void f(); };', '  int x = 1;', '}', ''].join('\n');
    expect(await ids('src/outer.cpp', text)).toEqual(['outer#function', 'outer.Local#struct', 'outer.Local.a#field', 'outer.K#class', 'outer.K.f#method']);
  });

  it('Ruby: a def in a def, and aliases and defs inside a class_eval in a method', async () => {
    const text = [
      'module Ext',
      '  def self.included(base)',
      '    base.class_eval do',
      '      alias_method :old_call, :call',
      '      alias new_call call',
      '      def added_in_eval; end',
      '    end',
      '  end',
      '  def outer',
      '    def inner; end',
      '    x = 1',
      '  end',
      'end',
      '',
    ].join('\n');
    expect(await ids('lib/ext.rb', text)).toEqual([
      'Ext#module',
      'Ext.self.included#method',
      'Ext.self.included.old_call#method',
      'Ext.self.included.new_call#method',
      'Ext.self.included.added_in_eval#method',
      'Ext.outer#method',
      'Ext.outer.inner#method',
    ]);
  });

  it("shell: functions defined in a function's if, subshell and loop; no local", async () => {
    const text = [
      'outer() {',
      '  local x=1',
      '  if true; then',
      '    inner_if() { :; }',
      '  fi',
      '  (',
      '    sub_fn() { :; }',
      '  )',
      '  for x in 1; do',
      '    in_loop() { :; }',
      '  done',
      '}',
      '',
    ].join('\n');
    expect(await ids('bin/tool.sh', text)).toEqual(['outer#function', 'outer.inner_if#function', 'outer.sub_fn#function', 'outer.in_loop#function']);
  });
});
