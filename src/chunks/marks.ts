/**
 * What the invariant and convention corpora read from one file's parse tree: its comments (grouped
 * into blocks of adjacent lines), its panic / raise / throw statements with the string literals of
 * their message. Comments and raises are tree nodes, never a regex over the file: a `// WARNING` inside a string literal is not a comment, and a `panic(` in a comment is not
 * a panic. Only a comment's own text is then read line by line (invariants.ts).
 * Runs in a syntax worker (chunkSyntax), in the same job as the function bodies the chunker cuts at.
 */
import { functionBodies, type FunctionBody } from '../adapters/file-structure.js';
import { scanImports } from '../adapters/import-scan.js';
import { syntaxOf } from '../adapters/languages.js';
import { inSyntaxWorker, type ParseBounds } from '../syntax/job-pool.js';
import { type SyntaxNode, withSyntaxTree } from '../syntax/syntax.js';
import { type FileIdioms, idiomsOf } from './idioms.js';

export interface CommentBlock {
  /** 1-based first and last line. */
  start_line: number;
  end_line: number;
  /** One entry per line of the block: its line and its text without the comment marks. */
  lines: { line: number; text: string }[];
  /** The block is alone on its lines (not after code on its first line). */
  own_line: boolean;
}

export interface RaiseSite {
  start_line: number;
  end_line: number;
  /** panic (Go, Rust), raise (Python, Ruby) or throw (the C family, PHP). */
  marker: 'panic' | 'raise' | 'throw';
  /** The string literals in it, joined: the message a policy word is looked for in. */
  message: string;
}

export interface FileMarks {
  comments: CommentBlock[];
  raises: RaiseSite[];
}

export interface ChunkSyntax {
  bodies: FunctionBody[];
  marks: FileMarks;
  /** Idiom counts for the package's convention chunk (idioms.ts). */
  idioms: FileIdioms;
}

/** Comments and raises past these are not read: a generated file is not a policy document. */
const MAX_COMMENTS = 20_000;
const MAX_RAISES = 5_000;
const MAX_MESSAGE = 500;

const THROW_TYPES = new Set(['throw_statement', 'throw_expression']);

/** The comment marks a line of comment text starts with (`//`, `/*`, `*`, `#`, `--`, `"""`), and a closing `*\/`. */
function stripMarks(line: string): string {
  return line
    .replace(/^\s*(\/\/+!?|\/\*+!?|\*+(?!\/)|#+!?|--|"""|''')?\s?/, '')
    .replace(/\s*\*+\/\s*$/, '')
    .trimEnd();
}

function isComment(n: { type: string; isNamed: boolean }): boolean {
  return n.isNamed && /comment/.test(n.type);
}

/** The raise a node is, if it is one: throw statements, Python's raise, Go's panic(...), Rust's panic!, Ruby's raise. */
function raiseMarker(n: SyntaxNode): RaiseSite['marker'] | undefined {
  if (THROW_TYPES.has(n.type)) return 'throw';
  if (n.type === 'raise_statement') return 'raise';
  if (n.type === 'call_expression' && n.childForFieldName('function')?.text === 'panic') return 'panic';
  if (n.type === 'macro_invocation' && n.childForFieldName('macro')?.text === 'panic') return 'panic';
  if (n.type === 'call' && !n.childForFieldName('receiver') && n.childForFieldName('method')?.text === 'raise') return 'raise';
  return undefined;
}

/** The outermost string literals under a node, joined by a space, cut at MAX_MESSAGE. */
function messageOf(n: SyntaxNode): string {
  const out: string[] = [];
  const stack: SyntaxNode[] = [n];
  let size = 0;
  while (stack.length && size < MAX_MESSAGE) {
    const x = stack.pop()!;
    if (x !== n && /string|heredoc/.test(x.type) && !/content|fragment/.test(x.type)) {
      out.push(x.text);
      size += x.text.length;
      continue;
    }
    for (let i = x.namedChildCount - 1; i >= 0; i--) stack.push(x.namedChild(i)!);
  }
  return out.join(' ').slice(0, MAX_MESSAGE);
}

/** Whether code precedes the node on its first line (a trailing comment). */
function afterCode(n: SyntaxNode): boolean {
  const prev = n.previousSibling;
  return !!prev && prev.endPosition.row === n.startPosition.row;
}

function scanTree(root: SyntaxNode): FileMarks {
  const comments: CommentBlock[] = [];
  const raises: RaiseSite[] = [];
  const cursor = root.walk();
  try {
    for (;;) {
      const n = cursor.currentNode;
      let descend = true;
      if (isComment(n)) {
        descend = false;
        if (comments.length < MAX_COMMENTS) addComment(comments, n);
      } else if (raises.length < MAX_RAISES) {
        const marker = raiseMarker(n);
        if (marker) raises.push({ start_line: n.startPosition.row + 1, end_line: n.endPosition.row + 1, marker, message: messageOf(n) });
      }
      if (descend && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return { comments, raises };
    }
  } finally {
    cursor.delete();
  }
}

/** Adds a comment node, joining it to the block above when it starts on the next line and both stand alone. */
function addComment(blocks: CommentBlock[], n: SyntaxNode): void {
  const start = n.startPosition.row + 1;
  const own = !afterCode(n);
  const lines = n.text.split(/\r\n|\r|\n/).map((t, i) => ({ line: start + i, text: stripMarks(t) }));
  const last = blocks[blocks.length - 1];
  if (last && own && last.own_line && last.end_line === start - 1) {
    last.lines.push(...lines);
    last.end_line = n.endPosition.row + 1;
    return;
  }
  blocks.push({ start_line: start, end_line: n.endPosition.row + 1, lines, own_line: own });
}

/** A file's comments and raises; undefined without a grammar for it. */
export async function scanMarks(relPath: string, text: string): Promise<FileMarks | undefined> {
  const syntax = syntaxOf(relPath);
  if (!syntax) return undefined;
  return withSyntaxTree(syntax.grammar, text, (root) => scanTree(root));
}

/** What the chunker needs of a file's parse: function bodies, comments and raises, idiom counts. */
export async function chunkSyntax(relPath: string, text: string): Promise<ChunkSyntax | undefined> {
  const syntax = syntaxOf(relPath);
  if (!syntax) return undefined;
  const bodies = (await functionBodies(relPath, text)) ?? [];
  const imports = ((await scanImports(relPath, text)) ?? []).map((i) => i.specifier);
  return withSyntaxTree(syntax.grammar, text, (root) => ({ bodies, marks: scanTree(root), idioms: idiomsOf(root, imports) }));
}

/** chunkSyntax in a syntax worker, within the workspace's parse bounds (TIMEOUT / LIMIT_EXCEEDED naming the file past them). */
export function boundedChunkSyntax(relPath: string, text: string, bounds?: ParseBounds): Promise<ChunkSyntax | undefined> {
  const syntax = syntaxOf(relPath);
  if (!syntax) return Promise.resolve(undefined);
  return inSyntaxWorker({ metaUrl: import.meta.url, module: 'marks', grammar: syntax.grammar, bounds }, 'chunkSyntax', relPath, text);
}
