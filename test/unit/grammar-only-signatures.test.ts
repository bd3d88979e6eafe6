// Signatures of the grammar-only languages are read from the tree: a declaration's text from its name's line up
// to its body, or its own text when it has no body; never a one-line body, a neighbour on the same line, or a
// comment. Through the real tree-sitter grammars (the syntax tier's own entry point).
import { describe, expect, it } from 'vitest';

import { syntaxEntry } from '../../src/service/cataloging/syntax-entry.js';

async function signatures(rel: string, text: string): Promise<Record<string, string>> {
  const bytes = Buffer.from(text, 'utf8');
  const entry = await syntaxEntry({ rel, abs: `/ws/${rel}`, root: '/ws', bytes, size: bytes.length, mtimeMs: 0 });
  const out: Record<string, string> = {};
  for (const s of entry?.symbols ?? []) out[`${s.kind} ${s.qualified_name}`] = s.signature;
  return out;
}

describe('grammar-only signatures stop at the body', () => {
  it('Java: one-line methods, fields with their type and modifiers, a class with its supertypes', async () => {
    const sig = await signatures(
      'A.java',
      `class Impl extends Base
    implements Runnable {
  private static final long serialVersionUID = 1L; // trailing
  int a, b;
  public String toString() { return ""; }
  public void run() throws IllegalStateException {
  }
}
`,
    );
    expect(sig['class Impl']).toBe('class Impl extends Base implements Runnable');
    expect(sig['field Impl.serialVersionUID']).toBe('private static final long serialVersionUID = 1L;');
    expect(sig['field Impl.a']).toBe('int a, b;');
    expect(sig['method Impl.toString']).toBe('public String toString()');
    expect(sig['method Impl.run']).toBe('public void run() throws IllegalStateException');
  });

  it('C++: one-line members, enumerators sharing a line, a constructor without its initializers, a class without its comment', async () => {
    const sig = await signatures(
      'lib.h',
      `class Widget // exported
{
public:
  Widget(int size) : size_(size) {}
  int size() const { return size_; }
private:
  int size_;
};
enum class Color { Red, Green = 2, Blue };
struct Helper { int x; };
`,
    );
    expect(sig['class Widget']).toBe('class Widget');
    expect(sig['method Widget.Widget']).toBe('Widget(int size)');
    expect(sig['method Widget.size']).toBe('int size() const');
    expect(sig['field Widget.size_']).toBe('int size_;');
    expect(sig['enum Color']).toBe('enum class Color');
    expect(sig['enum_member Color.Green']).toBe('Green = 2');
    expect(sig['struct Helper']).toBe('struct Helper');
    expect(sig['field Helper.x']).toBe('int x;');
  });

  it('Rust: a parameter list broken over lines reads as one, a tuple struct keeps its fields', async () => {
    const sig = await signatures(
      'src/lib.rs',
      `pub struct Pair(u8, u16);
pub struct Node { pub id: u32 }
impl Node {
    pub fn grow(
        &self,
        by: usize,
    ) -> Result<(), ()> where Self: Sized { Ok(()) }
}
`,
    );
    expect(sig['struct Pair']).toBe('pub struct Pair(u8, u16);');
    expect(sig['struct Node']).toBe('pub struct Node');
    expect(sig['field Node.id']).toBe('pub id: u32');
    expect(sig['method impl Node.grow']).toBe('pub fn grow(&self, by: usize) -> Result<(), ()> where Self: Sized');
  });

  it('Ruby, shell and CSS: no body, no trailing comment, every selector of a list', async () => {
    const rb = await signatures('a.rb', 'class GemNotFound < Error; status_code(7); end\ndef measure(label = "") # :yield:\nend\n');
    expect(rb['class GemNotFound']).toBe('class GemNotFound < Error');
    expect(rb['function measure']).toBe('def measure(label = "")');
    const sh = await signatures('a.sh', 'units () { systemctl list-units | while read -r a; do echo "$a"; done; }\n');
    expect(sh['function units']).toBe('units ()');
    const css = await signatures('a.css', '.btn, .btn-primary { color: red; }\n');
    expect(css['class .btn-primary']).toBe('.btn, .btn-primary');
  });
});

describe('C# fields and events', () => {
  it('keep their modifiers: the declarator climbs past the variable declaration to the field', async () => {
    const sig = await signatures('A.cs', 'class S {\n  private readonly int _w = 0;\n  public event EventHandler Sent;\n  public int Cost() => _w * 2;\n}\n');
    expect(sig['field S._w']).toBe('private readonly int _w = 0;');
    expect(sig['field S.Sent']).toBe('public event EventHandler Sent;');
    expect(sig['method S.Cost']).toBe('public int Cost()');
  });
});
