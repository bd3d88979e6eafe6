// Declarations inside function bodies, in languages lspgate runs no server for: the outline lists
// them nested under their function, as ctags and the languages' own outlines do (a Rust struct, its
// impl, a `type` and an inner `fn`; a C++ class, struct and enum in a function; a shell function
// defined in a function; a Ruby method defined in a method), and never a body's variables.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';

interface OutlineNode {
  name: string;
  kind: string;
  children?: OutlineNode[];
}

const flat = (nodes: OutlineNode[], pre = ''): string[] => nodes.flatMap((n) => [`${pre}${n.name}#${n.kind}`, ...flat(n.children ?? [], `${pre}${n.name}.`)]);

const fx = await openFixture('body-declarations');

async function outline(file: string): Promise<string[]> {
  const r = await fx.run('get_file_outline', { file });
  return flat(r.symbols as OutlineNode[]);
}

describe('declarations inside function bodies, without a server', () => {
  it('Rust: a struct, its impl, a type and an inner fn under their function; locals left out', async () => {
    const names = await outline('rust/lib.rs');
    expect(names).toEqual(
      expect.arrayContaining([
        'impl Outer.method.InMethod#struct',
        'impl Outer.method.InMethod.a#field',
        'impl Outer.method.impl InMethod#namespace',
        'impl Outer.method.impl InMethod.get#method',
        'impl Outer.method.Alias#type',
        'impl Outer.method.helper#function',
        'top.Local#enum',
        'tests.t.Fixture#struct',
      ]),
    );
    expect(names.filter((n) => /LIMIT|NAME|closure/.test(n))).toEqual([]);
  });

  it('C++: a struct, a class and an enum in a function, with their members; no local variable', async () => {
    const names = await outline('cpp/render.cpp');
    expect(names).toEqual(expect.arrayContaining(['render.Frame#struct', 'render.Frame.size#method', 'render.Cursor#class', 'render.Mode#enum']));
    expect(names.filter((n) => /total|list\b/.test(n))).toEqual([]);
  });

  it('shell and Ruby: a function defined in a function, a method in a method', async () => {
    expect(await outline('shell/deploy.sh')).toEqual(expect.arrayContaining(['deploy#function', 'deploy.cleanup#function']));
    const ruby = await outline('ruby/builder.rb');
    expect(ruby).toEqual(expect.arrayContaining(['Builder.build#method', 'Builder.build.helper#method']));
    expect(ruby.filter((n) => /count/.test(n))).toEqual([]);
  });
});
