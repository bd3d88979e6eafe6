/**
 * Markdown of the descriptor operations.
 */
import { type ClassDescriptor, type FunctionDescriptor, type OutlineSymbol } from '../../schema/descriptors.js';
import { type CompactOutlineNode } from '../../schema/outline.js';
import type { ListPackageExportsResult } from '../contracts/descriptors.js';

export function loc(l: { file_path?: string | undefined; start_line?: number | undefined; end_line?: number | undefined } | undefined): string {
  return l?.file_path ? `${l.file_path}:${l.start_line ?? '?'}-${l.end_line ?? '?'}` : '';
}

export function functionMarkdown(f: FunctionDescriptor, level = '##'): string[] {
  const out = [`${level} ${f.kind} ${f.receiver ? `${f.receiver}.` : ''}${f.name}`, '', '```', f.signature ?? f.name, '```'];
  if (f.description) out.push('', f.description);
  const flags = [f.visibility, f.is_static ? 'static' : '', f.is_abstract ? 'abstract' : '', ...(f.tags ?? [])].filter(Boolean);
  if (flags.length) out.push('', `_${flags.join(', ')}_ — ${loc(f.location)}`);
  else out.push('', loc(f.location));
  if (f.parameters?.length) {
    out.push('', '| parameter | type | default | description |', '|---|---|---|---|');
    for (const p of f.parameters)
      out.push(`| ${p.variadic ? '...' : ''}${p.name}${p.optional ? '?' : ''} | ${p.type ?? ''} | ${p.default ?? ''} | ${p.description ?? ''} |`);
  }
  for (const r of f.returns ?? []) out.push('', `Returns \`${r.type}\`${r.description ? ` — ${r.description}` : ''}`);
  const overloads = f.metadata?.overloads;
  if (Array.isArray(overloads)) out.push('', 'Overloads:', ...overloads.map((o) => `- \`${String(o)}\``));
  if (f.code) out.push('', '```', f.code, '```');
  return out;
}

export function classMarkdown(c: ClassDescriptor & { symbol_id?: string }): string {
  const out = [`## ${c.kind} ${c.full_name ?? c.name}`, '', '```', c.signature ?? c.name, '```'];
  if (c.description) out.push('', c.description);
  out.push('', `${loc(c.location)}${c.symbol_id ? ` \`${c.symbol_id}\`` : ''}`);
  if (c.relations?.length) out.push('', ...c.relations.map((r) => `- ${r.type} **${r.target}**${r.target_full_name ? ` (${r.target_full_name})` : ''}`));
  if (c.fields?.length) {
    out.push('', '### Fields', '', '| name | type | modifiers | default | description |', '|---|---|---|---|---|');
    for (const f of c.fields) {
      const mods = [f.visibility, f.is_static ? 'static' : '', f.is_readonly ? 'readonly' : '', f.optional ? 'optional' : '', ...(f.tags ?? [])]
        .filter(Boolean)
        .join(' ');
      out.push(`| ${f.name} | ${f.type ?? ''} | ${mods} | ${f.default ?? ''} | ${f.description ?? ''} |`);
    }
  }
  if (c.methods?.length) {
    out.push('', '### Methods', '');
    for (const m of c.methods) out.push(`- \`${m.signature ?? m.name}\`${m.description ? ` — ${m.description.split('\n')[0]}` : ''}`);
  }
  return out.join('\n') + '\n';
}

export function outlineMarkdown(r: { file: string; language: string; symbols: (OutlineSymbol | CompactOutlineNode)[] }): string {
  const out = [`## ${r.file} (${r.language})`, ''];
  const walk = (list: (OutlineSymbol | CompactOutlineNode)[], depth: number) => {
    for (const s of list) {
      const line = 'lines' in s ? `lines ${s.lines[0]}-${s.lines[1]}` : `line ${s.location?.start_line ?? '?'}`;
      out.push(`${'  '.repeat(depth)}- ${s.kind} **${s.name}** — ${line}${s.signature ? `: \`${s.signature}\`` : ''}`);
      walk(s.children ?? [], depth + 1);
    }
  };
  walk(r.symbols, 0);
  if (!r.symbols.length) out.push('(no symbols)');
  return out.join('\n') + '\n';
}

export function listPackageExportsMarkdown(r: ListPackageExportsResult): string {
  const out = [`## Exports of ${r.package}`, '', `files: ${r.files.join(', ')}`, ''];
  const byKind = new Map<string, typeof r.symbols>();
  for (const s of r.symbols) byKind.set(s.kind, [...(byKind.get(s.kind) ?? []), s]);
  for (const [kind, list] of byKind) {
    out.push(`### ${kind}`, '');
    for (const s of list) out.push(`- **${s.name}** — \`${s.signature ?? s.name}\` (${loc(s.location)})`);
    out.push('');
  }
  if (!r.symbols.length) out.push('(no exported symbols)');
  return out.join('\n').trimEnd() + '\n';
}
