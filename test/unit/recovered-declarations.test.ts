// Declarations of the grammar-only languages that tree-sitter's grammars lose or leave out, read as the
// syntax cataloger reads them (ids `path::Qualified.name#kind`): a Rust trait's associated type without a
// default, methods after an attribute the Rust grammar cannot place, shell functions whose body error
// recovery broke, and C# declarations the outline left out.
import { describe, expect, it } from 'vitest';

import { syntaxEntry } from '../../src/service/cataloging/syntax-entry.js';

async function symbols(rel: string, text: string): Promise<Array<{ id: string; line: number; end: number }>> {
  const bytes = Buffer.from(text);
  const entry = await syntaxEntry({ rel, abs: `/ws/${rel}`, root: '/ws', bytes, size: bytes.length, mtimeMs: 0 });
  return entry!.symbols.map((s) => ({ id: s.symbol_id.slice(rel.length + 2), line: s.line, end: s.end_line }));
}

async function ids(rel: string, text: string): Promise<string[]> {
  return (await symbols(rel, text)).map((s) => s.id);
}

describe('Rust declarations the outline lost', () => {
  it("lists a trait's associated type without a default, as the impl's `type Output = …` is listed", async () => {
    const text = [
      'trait Shape {',
      '    type Output;',
      '    fn area(&self);',
      '}',
      '',
      'impl Shape for Node {',
      '    type Output = Node;',
      '    fn area(&self) {}',
      '}',
      '',
    ].join('\n');
    expect(await ids('src/shape.rs', text)).toEqual([
      'Shape#interface',
      'Shape.Output#type',
      'Shape.area#method',
      'impl Shape for Node#namespace',
      'impl Shape for Node.Output#type',
      'impl Shape for Node.area#method',
    ]);
  });

  it('keeps the methods after an attribute on a parenthesized expression (`(#[rustc_box] Box::new(x))`) in their impl', async () => {
    const text = [
      'impl<T> Box<T> {',
      '    pub fn pin(x: T) -> Pin<Box<T>> {',
      '        (#[cfg_attr(not(bootstrap), rustc_box)]',
      '        Box::new(x))',
      '        .into()',
      '    }',
      '',
      '    #[inline]',
      '    pub fn try_new(x: T) -> Result<Self, AllocError> {',
      '        Self::try_new_in(x, Global)',
      '    }',
      '}',
      '',
      'impl<T, A: Allocator> Box<T, A> {',
      '    pub fn new_in(x: T, alloc: A) -> Self {',
      '        todo!()',
      '    }',
      '}',
      '',
    ].join('\n');
    expect(await ids('src/boxed.rs', text)).toEqual([
      'impl Box<T>#namespace',
      'impl Box<T>.pin#method',
      'impl Box<T>.try_new#method',
      'impl Box<T, A>#namespace',
      'impl Box<T, A>.new_in#method',
    ]);
  });
});

describe('shell functions whose body the grammar could not parse', () => {
  it('keeps a function whose backtick command holds `s/:$//`, read from the header tokens error recovery left', async () => {
    const text = [
      '_pygmentize()',
      '{',
      '    local cur',
      '    STYLES=`pygmentize -L styles | sed s/:$//`',
      '    COMPREPLY=( $( compgen -W "$STYLES" -- "$cur" ) )',
      '}',
      '',
      '_other() {',
      '    :',
      '}',
      '',
    ].join('\n');
    expect(await symbols('completions/pygmentize.bash', text)).toEqual([
      { id: '_pygmentize#function', line: 1, end: 6 },
      { id: '_other#function', line: 8, end: 10 },
    ]);
  });

  it('reads the functions after an extended glob group continued over lines inside `[[ … ]]`', async () => {
    const text = [
      '_a() {',
      '  if [[ $p == @(kvm|kmem|',
      '     |data|trace) ]]; then',
      '    x=$(foo "$p")',
      '  fi',
      '}',
      '',
      '_b() {',
      '  :',
      '}',
      '_c() {',
      '  echo "a"',
      '}',
      '',
    ].join('\n');
    expect((await symbols('completions/perf.bash', text)).map((s) => [s.id, s.line, s.end])).toEqual([
      ['_a#function', 1, 6],
      ['_b#function', 8, 10],
      ['_c#function', 11, 13],
    ]);
  });

  it("keeps a header the grammar read as a command followed by an ERROR node's `(` `)` `{` tokens, and a `function name {` after it", async () => {
    const text = [
      '#',
      '# completion for pygmentize',
      '#',
      '',
      '_styles()',
      '{',
      '    case "$prev" in',
      '        -S)',
      '            STYLES=`pygmentize -L styles | sed s/:$//`',
      '            return 0',
      '            ;;',
      '    esac',
      '}',
      '',
      'function _helper {',
      '    echo x',
      '}',
      '',
      '[ -n "${have:-}" ] && complete -F _styles -o filenames pygmentize',
      '',
    ].join('\n');
    expect((await symbols('completions/pygmentize.bash', text)).map((s) => [s.id, s.line])).toEqual([
      ['_styles#function', 5],
      ['_helper#function', 15],
    ]);
  });
});

describe('a garbled script read from its ERROR tokens', () => {
  // Each header word once read all of its ERROR node's tokens again: 5,000 headers in one node took 83 s,
  // 12,000 would take minutes; read once, they take seconds on any machine (the bound is the test's limit).
  it('finds 12,000 headers in one ERROR node, reading its tokens once', { timeout: 120_000 }, async () => {
    const headers = Array.from({ length: 12_000 }, (_, i) => `w${i} ( ) {`).join(' ');
    const found = await ids('garbled.sh', `esac } ${headers}\n`);
    expect(found.length).toBeGreaterThanOrEqual(11_999);
    expect(found).toContain('w11998#function');
  });
});

describe('C# declarations the outline left out', () => {
  it('lists operators and conversion operators as methods named as Roslyn names them', async () => {
    const text = [
      'public readonly struct Unit {',
      '    public static bool operator ==(Unit a, Unit b) => true;',
      '    public static implicit operator System.Threading.Tasks.ValueTask(Unit u) => default;',
      '    public static explicit operator T(Unit u) => default;',
      '}',
      '',
    ].join('\n');
    expect(await ids('src/Unit.cs', text)).toEqual([
      'Unit#struct',
      'Unit.operator ==#method',
      'Unit.operator System.Threading.Tasks.ValueTask#method',
      'Unit.operator T#method',
    ]);
  });

  it('lists indexers (`this`) as properties and finalizers (`~Name`) as methods', async () => {
    const text = [
      'class Holder {',
      '    ~Holder() { }',
      '    public int this[int i] => i;',
      '    object IDictionary.this[object key] { get { return null; } }',
      '}',
      '',
    ].join('\n');
    expect(await ids('src/Holder.cs', text)).toEqual(['Holder#class', 'Holder.~Holder#method', 'Holder.this#property', 'Holder.this#property~2']);
  });

  it('keeps the namespace whose #if and #else branches open a class differently, reading the #if branch as the compiler and ctags do', async () => {
    const text = [
      'namespace UniRx',
      '{',
      '#if UniRxLibrary',
      '    public static partial class SchedulerUnity',
      '    {',
      '#else',
      '    public static partial class Scheduler',
      '    {',
      '        public static void SetDefaultForUnity() { }',
      '#endif',
      '        static IScheduler mainThread;',
      '    }',
      '}',
      '',
    ].join('\n');
    expect(await ids('src/MainThreadScheduler.cs', text)).toEqual(['UniRx#namespace', 'UniRx.SchedulerUnity#class', 'UniRx.SchedulerUnity.mainThread#field']);
  });
});
