/**
 * get_file_outline's `detail` and `depth`: the full outline (every node a SymbolDescriptor with its
 * id) cut to what was asked. `signatures` (the default) keeps kind, name, the signature's first
 * line (≤ 100 characters: a type literal spelled out in a hover can outweigh its declaration), line range and
 * nesting; `names` drops the signature too; `full` keeps everything. `depth` 1 keeps the top level.
 */
import type { OutlineSymbol } from '../../schema/descriptors.js';
import type { CompactOutlineNode, OutlineDetail } from '../../schema/outline.js';

export function shapeOutline(nodes: OutlineSymbol[], detail: OutlineDetail, depth?: number): (OutlineSymbol | CompactOutlineNode)[] {
  return nodes.map((n) => shapeNode(n, detail, depth === undefined ? Infinity : depth, 1));
}

function shapeNode(n: OutlineSymbol, detail: OutlineDetail, depth: number, level: number): OutlineSymbol | CompactOutlineNode {
  const kids = level < depth && n.children?.length ? n.children.map((c) => shapeNode(c, detail, depth, level + 1)) : undefined;
  if (detail === 'full') {
    const { children: _c, ...rest } = n;
    return kids ? { ...rest, children: kids as OutlineSymbol[] } : rest;
  }
  const start = n.location?.start_line ?? 0;
  const node: CompactOutlineNode = { kind: n.kind, name: n.name, lines: [start, n.location?.end_line ?? start] };
  // A signature that only repeats the name (a Go field, a PHP constant) or the kind and the name
  // (`interface Foo`, `class Bar`: most of a declaration-dense file's containers) says nothing more.
  if (detail === 'signatures' && n.signature && !saysNothingMore(n)) node.signature = oneLine(n.signature);
  if (kids) node.children = kids as CompactOutlineNode[];
  return node;
}

/** Enough of a signature to orient by: its first line, at most SIGNATURE_CHARS (full has the rest). */
const SIGNATURE_CHARS = 100;

function oneLine(signature: string): string {
  const first = signature.split('\n', 1)[0]!.trimEnd();
  const cut = first.length > SIGNATURE_CHARS ? `${first.slice(0, SIGNATURE_CHARS - 1)}…` : first;
  return cut.length < signature.length && !cut.endsWith('…') ? `${cut} …` : cut;
}

function saysNothingMore(n: OutlineSymbol): boolean {
  const sig = n.signature!.replace(/^(export\s+)?(default\s+)?(declare\s+)?/, '').trim();
  return sig === n.name || sig === `${n.kind} ${n.name}`;
}
