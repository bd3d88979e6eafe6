/**
 * Shell functions the grammar could not parse. tree-sitter-bash's error recovery gives up on some
 * scripts bash runs, and the functions around the break lose their `function_definition` node:
 * - an extended glob group continued over lines inside `[[ … ]]` (`@(kvm|kmem|` newline `|data) ]]`,
 *   or one holding quoted words `@("-e"|"--event")`): the pattern token stops short, and a quote
 *   further on opens a string that swallows the functions after it. The test is read as blank from
 *   after its left operand to the group's `)` (a test declares nothing), so the script parses again;
 * - a backtick command holding `s/:$//`, and what is left broken after the repair: the headers are
 *   tokens of ERROR nodes. Read from those tokens (never from the text), a header is still a function,
 *   spanning to the `}` that closes its `{` among the tokens, or to the next header or parsed function,
 *   or the last token, when error recovery took the closing brace elsewhere. A header swallowed into a
 *   string token has no tokens left to read and stays lost.
 */
import type { SyntaxCapture, SyntaxNode } from '../../syntax/syntax.js';
import type { DeclaredName, TextRepair } from '../query-declarations.js';

/**
 * Where the body of a header begins among `tokens`, the header's tokens after its name starting at
 * `from` (`(` `)` then `{`; after `function name` the parentheses may be left out), or -1 when none.
 */
function bodyIndex(tokens: readonly (SyntaxNode | null)[], from: number, keyword: boolean): number {
  const type = (k: number) => tokens[k]?.type;
  let k = from;
  if (type(k) === '(' && type(k + 1) === ')') k += 2;
  else if (!keyword) return -1;
  return type(k) === '{' || type(k) === 'compound_statement' ? k : -1;
}

/** Whether `tokens[k]` is the name of a header among them. */
function isHeader(tokens: readonly (SyntaxNode | null)[], k: number): boolean {
  return tokens[k]?.type === 'word' && bodyIndex(tokens, k + 1, tokens[k - 1]?.type === 'function') >= 0;
}

/** The end of a body opening at `tokens[body]`: its closing `}`, else the token before the next header or a parsed function, else the last token. */
function bodyEnd(tokens: readonly (SyntaxNode | null)[], body: number): number {
  const open = tokens[body]!;
  if (open.type === 'compound_statement') return open.endIndex;
  let depth = 0;
  for (let k = body; k < tokens.length; k++) {
    const t = tokens[k]!;
    // a function the grammar did parse is no part of this one's body
    if (k > body && (t.type === 'function_definition' || t.descendantsOfType('function_definition').length > 0)) return tokens[k - 1]!.endIndex;
    if (k > body && isHeader(tokens, k)) return tokens[k - (tokens[k - 1]?.type === 'function' ? 2 : 1)]!.endIndex;
    if (t.type === '{') depth++;
    else if (t.type === '}' && --depth === 0) return t.endIndex;
  }
  return tokens[tokens.length - 1]!.endIndex;
}

/** The tokens of the ERROR node the last words were found in, with each one's index by its start. */
let lastTokens: { tree: unknown; id: number; tokens: (SyntaxNode | null)[]; at: Map<number, number> } | undefined;

/**
 * An ERROR node's tokens, read once for all its words: a garbled script's ERROR node may hold tens of
 * thousands of them (5,000 headers in one took 83 s when each word read its parent's children again).
 * Words arrive in document order, so the node asked last is the one asked next.
 */
function tokensOf(parent: SyntaxNode): { tokens: (SyntaxNode | null)[]; at: Map<number, number> } {
  if (lastTokens?.tree === parent.tree && lastTokens.id === parent.id) return lastTokens;
  const tokens = parent.children;
  const at = new Map<number, number>();
  tokens.forEach((t, i) => t && !at.has(t.startIndex) && at.set(t.startIndex, i));
  lastTokens = { tree: parent.tree, id: parent.id, tokens, at };
  return lastTokens;
}

/**
 * A function header error recovery left in pieces, named by its word: the word among an ERROR
 * node's tokens (`name` `(` `)` `{` …), or a command of that one word followed by an ERROR node
 * whose tokens open with `(` `)` `{` (the grammar read the name as a command, then failed).
 */
export function functionInError(word: SyntaxNode): DeclaredName | undefined {
  const parent = word.parent;
  if (parent?.type === 'ERROR') {
    const { tokens, at } = tokensOf(parent);
    const i = at.get(word.startIndex) ?? -1;
    const keyword = tokens[i - 1]?.type === 'function';
    const body = i < 0 ? -1 : bodyIndex(tokens, i + 1, keyword);
    if (body < 0) return undefined;
    return { text: word.text, at: word.startIndex, span: [keyword ? tokens[i - 1]!.startIndex : word.startIndex, bodyEnd(tokens, body)] };
  }
  const command = parent?.type === 'command_name' ? parent.parent : undefined;
  const next = command?.namedChildCount === 1 ? command.nextSibling : undefined;
  if (!command || next?.type !== 'ERROR') return undefined;
  const tokens = next.children;
  const body = bodyIndex(tokens, 0, false);
  return body < 0 ? undefined : { text: word.text, at: word.startIndex, span: [command.startIndex, bodyEnd(tokens, body)] };
}

/**
 * The words that may name a header error recovery left in pieces, as `@function` captures: found by a
 * walk into erroneous nodes only (a tree-sitter query does not match reliably beside an ERROR node).
 */
export function headerWords(root: SyntaxNode): SyntaxCapture[] {
  const out: SyntaxCapture[] = [];
  if (!root.hasError) return out;
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'ERROR') for (const c of n.children) if (c?.type === 'word') out.push({ name: 'function', node: c } as SyntaxCapture);
    if (n.type === 'command' && n.nextSibling?.type === 'ERROR') {
      const word = n.namedChild(0)?.namedChild(0);
      if (word?.type === 'word') out.push({ name: 'function', node: word } as SyntaxCapture);
    }
    if (!n.hasError) continue;
    for (let i = n.childCount - 1; i >= 0; i--) {
      const c = n.child(i);
      if (c) stack.push(c);
    }
  }
  return out;
}

/** The first leaf after `node` in the text, or undefined at the end. */
function nextLeaf(node: SyntaxNode): SyntaxNode | undefined {
  let n: SyntaxNode | null = node;
  while (n && !n.nextSibling) n = n.parent;
  let leaf = n?.nextSibling ?? null;
  while (leaf && leaf.childCount > 0) leaf = leaf.child(0);
  return leaf ?? undefined;
}

/** Leaves read at most past a broken extended glob for its closing `)`: a group spans a few lines, never a script. */
const GROUP_LEAVES = 200;

/**
 * The spans of extended glob groups continued over lines in a `[[ … ]]` test (`$x == @(a|b|` newline `|c) ]]`),
 * which tree-sitter-bash's pattern token cuts at the line break: from after the test's left operand to the `)`
 * closing the group, the first token after it that opens with `)`. Read as blank, `[[ $x ]]` is a test that parses.
 */
function brokenGlobs(root: SyntaxNode): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  if (!root.hasError) return spans;
  for (const n of root.descendantsOfType('extglob_pattern')) {
    if (!n || !/^[?*+@!]\(/.test(n.text) || n.text.split('(').length <= n.text.split(')').length) continue;
    const left = n.parent?.type === 'binary_expression' ? n.parent.namedChild(0) : undefined;
    let close = nextLeaf(n);
    for (let i = 0; close && i < GROUP_LEAVES && !close.text.startsWith(')'); i++) close = nextLeaf(close);
    if (left && left.endIndex <= n.startIndex && close?.text.startsWith(')')) spans.push([left.endIndex, close.startIndex + 1]);
  }
  return spans;
}

export const bashRepair: TextRepair = { grammar: 'bash', spans: brokenGlobs };
