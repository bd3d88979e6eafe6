/**
 * Source files shaped to make a per-file parse expensive, for the tests and the bench of bounded
 * extraction: one line of 20,000 declarations (a minified bundle's shape), a real minified library
 * from node_modules, and 100,000 levels of nesting in each language with a grammar — nested
 * declarations where the language has them, nested brackets where it has only expressions.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface HostileInput {
  /** What the input is, e.g. `deep-decl java`. */
  name: string;
  /** File name (its extension picks the grammar). */
  rel: string;
  text: string;
}

export const LONG_LINE_DECLARATIONS = 20_000;
export const DEEP_LEVELS = 100_000;

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const line = (n: number, each: (i: number) => string): string => range(n).map(each).join('');

/** One line holding `n` declarations, per language. */
export function longLineInputs(n = LONG_LINE_DECLARATIONS): HostileInput[] {
  return [
    { name: 'long-line javascript', rel: 'long.js', text: line(n, (i) => `var a${i};`) },
    { name: 'long-line typescript', rel: 'long.ts', text: line(n, (i) => `function a${i}(x: number) { return x; }`) },
    { name: 'long-line php', rel: 'long.php', text: '<?php ' + line(n, (i) => `function a${i}($x) { return $x; }`) },
    { name: 'long-line python', rel: 'long.py', text: line(n, (i) => `a${i} = ${i}; `) },
    { name: 'long-line go', rel: 'long.go', text: 'package p; ' + line(n, (i) => `func A${i}(x int) int { return x }; `) },
    { name: 'long-line java', rel: 'Long.java', text: 'class Long { ' + line(n, (i) => `int a${i}(int x) { return x; } `) + '}' },
    { name: 'long-line csharp', rel: 'Long.cs', text: 'class Long { ' + line(n, (i) => `int A${i}(int x) { return x; } `) + '}' },
    { name: 'long-line cpp', rel: 'long.cpp', text: line(n, (i) => `int a${i}(int x) { return x; } `) },
    { name: 'long-line rust', rel: 'long.rs', text: line(n, (i) => `fn a${i}(x: i32) -> i32 { x } `) },
    { name: 'long-line ruby', rel: 'long.rb', text: line(n, (i) => `def a${i}(x); x; end; `) },
    { name: 'long-line bash', rel: 'long.sh', text: line(n, (i) => `a${i}() { echo; }; `) },
    { name: 'long-line css', rel: 'long.css', text: line(n, (i) => `.a${i}{color:red}`) },
  ];
}

const require = createRequire(import.meta.url);

/** Real minified libraries shipped in node_modules (d3: 280 KB; cytoscape: 435 KB), saved as `.js`. */
export function minifiedInputs(): HostileInput[] {
  const out: HostileInput[] = [];
  for (const [name, spec] of [
    ['minified d3', 'd3/dist/d3.min.js'],
    ['minified cytoscape', 'cytoscape/dist/cytoscape.min.js'],
  ] as const) {
    // by path: a package's `exports` may not list its dist files
    const file = (require.resolve.paths(spec) ?? []).map((dir) => path.join(dir, spec)).find((f) => fs.existsSync(f));
    if (file) out.push({ name, rel: `${name.split(' ')[1]}.min.js`, text: fs.readFileSync(file, 'utf8') });
  }
  return out;
}

/** `open` n times, then `middle`, then `close` n times. */
const nest = (n: number, open: (i: number) => string, middle: string, close: string): string => line(n, open) + middle + close.repeat(n);

/** 100,000 levels of nesting per language: declarations inside declarations, and brackets inside brackets. */
export function deepInputs(n = DEEP_LEVELS): HostileInput[] {
  return [
    { name: 'deep-decl javascript', rel: 'deep.js', text: nest(n, (i) => `function f${i}(){`, '', '}') },
    { name: 'deep-expr javascript', rel: 'deep-expr.js', text: 'var x = ' + nest(n, () => '[', '1', ']') + ';' },
    { name: 'deep-decl typescript', rel: 'deep.ts', text: nest(n, (i) => `namespace N${i} {`, '', '}') },
    { name: 'deep-expr typescript', rel: 'deep-expr.ts', text: 'const x = ' + nest(n, () => '(', '1', ')') + ';' },
    { name: 'deep-decl php', rel: 'deep.php', text: '<?php ' + nest(n, (i) => `function f${i}() {`, '', '}') },
    { name: 'deep-expr php', rel: 'deep-expr.php', text: '<?php $x = ' + nest(n, () => '[', '1', ']') + ';' },
    { name: 'deep-expr python', rel: 'deep-expr.py', text: 'x = ' + nest(n, () => '[', '1', ']') + '\n' },
    { name: 'deep-decl go', rel: 'deep.go', text: 'package p\nvar x = ' + nest(n, () => 'func() {', '', '}') + '\n' },
    { name: 'deep-expr go', rel: 'deep-expr.go', text: 'package p\nvar x = ' + nest(n, () => '(', '1', ')') + '\n' },
    { name: 'deep-decl java', rel: 'Deep.java', text: nest(n, (i) => `class C${i} {`, '', '}') },
    { name: 'deep-expr java', rel: 'DeepExpr.java', text: 'class D { int x = ' + nest(n, () => '(', '1', ')') + '; }' },
    { name: 'deep-decl csharp', rel: 'Deep.cs', text: nest(n, (i) => `class C${i} {`, '', '}') },
    { name: 'deep-expr csharp', rel: 'DeepExpr.cs', text: 'class D { int x = ' + nest(n, () => '(', '1', ')') + '; }' },
    { name: 'deep-decl cpp', rel: 'deep.cpp', text: nest(n, (i) => `namespace n${i} {`, '', '}') },
    { name: 'deep-expr cpp', rel: 'deep-expr.cpp', text: 'int x = ' + nest(n, () => '(', '1', ')') + ';' },
    { name: 'deep-decl rust', rel: 'deep.rs', text: nest(n, (i) => `mod m${i} {`, '', '}') },
    { name: 'deep-expr rust', rel: 'deep-expr.rs', text: 'const X: i32 = ' + nest(n, () => '(', '1', ')') + ';' },
    { name: 'deep-decl ruby', rel: 'deep.rb', text: nest(n, (i) => `module M${i};`, '', 'end;') },
    { name: 'deep-expr ruby', rel: 'deep-expr.rb', text: 'x = ' + nest(n, () => '[', '1', ']') + '\n' },
    { name: 'deep-decl bash', rel: 'deep.sh', text: nest(n, (i) => `f${i}() { `, 'true; ', '}; ') },
    { name: 'deep-expr bash', rel: 'deep-expr.sh', text: nest(n, () => '( ', 'true', ' )') + '\n' },
    { name: 'deep-decl css', rel: 'deep.css', text: nest(n, (i) => `.c${i} {`, '', '}') },
    { name: 'deep-expr css', rel: 'deep-expr.css', text: '.a { width: ' + nest(n, () => 'calc(', '1px', ')') + '; }' },
  ];
}
