/**
 * project_context's answer from the gathered data (project-context.ts): the one-paragraph summary,
 * the dependency map cut to its budget, directory-level architecture notes, and the markdown document.
 */
import path from 'node:path';

import type { ServiceCall } from '../../service/call.js';
import type { CodeElement, EntryPoint, PackageInfo, PatternInfo, ProjectContextData } from './project-context.js';

export interface ShapedContext {
  project_summary: string;
  summary: { languages: Record<string, number>; packages: PackageInfo[]; entry_points: EntryPoint[] };
  elements: CodeElement[];
  dependencies: Record<string, string[]>;
  test_patterns: Record<string, PatternInfo>;
  architecture_notes: string;
}

const MAX_PATTERN_FILES = 50;
const MAX_NOTES = 40;

export function shapeContext(call: ServiceCall, d: ProjectContextData, elements: CodeElement[], maxDependencies: number): ShapedContext {
  const depFiles = Object.keys(d.dependencies);
  if (depFiles.length > maxDependencies) {
    call.meta.truncate();
    call.meta.limit({ limit: 'max_dependencies', value: maxDependencies, detail: `${depFiles.length} importing files, ${maxDependencies} listed` });
  }
  const dependencies = Object.fromEntries(depFiles.slice(0, maxDependencies).map((f) => [f, d.dependencies[f]!]));
  const test_patterns: Record<string, PatternInfo> = {};
  for (const [name, p] of Object.entries(d.test_patterns)) {
    if (p.files.length > MAX_PATTERN_FILES)
      call.meta.limit({ limit: 'test_pattern_files', value: MAX_PATTERN_FILES, detail: `${name}: ${p.files.length} files, ${MAX_PATTERN_FILES} listed` });
    test_patterns[name] = { ...p, files: p.files.slice(0, MAX_PATTERN_FILES) };
  }
  const name = d.packages[0]?.name ?? path.basename(call.root);
  const langs = Object.entries(d.languages)
    .sort((a, b) => b[1] - a[1])
    .map(([l, n]) => `${l} (${n})`)
    .join(', ');
  const project_summary =
    `${name}: ${d.files} cataloged file(s) in ${langs || 'no served language'}; ${d.packages.length} package(s); ` +
    `${d.entry_points.length} entry point(s); ${d.elements.length} top-level element(s); ${d.test_files} test file(s).`;
  return {
    project_summary,
    summary: { languages: d.languages, packages: d.packages, entry_points: d.entry_points },
    elements,
    dependencies,
    test_patterns,
    architecture_notes: architectureNotes(call, d.dependencies),
  };
}

/** Which directory imports which (file edges folded onto their directories), most edges first. */
function architectureNotes(call: ServiceCall, deps: Record<string, string[]>): string {
  const edges = new Map<string, number>();
  for (const [from, tos] of Object.entries(deps)) {
    const a = path.posix.dirname(from);
    for (const to of tos) {
      // A Go import's target is its package directory already.
      const b = path.posix.extname(to) ? path.posix.dirname(to) : to;
      if (a !== b) edges.set(`${a} → ${b}`, (edges.get(`${a} → ${b}`) ?? 0) + 1);
    }
  }
  const list = [...edges].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]));
  if (!list.length) return 'No import crosses a directory boundary.';
  if (list.length > MAX_NOTES)
    call.meta.limit({ limit: 'architecture_notes', value: MAX_NOTES, detail: `${list.length} directory edges, ${MAX_NOTES} listed` });
  return ['Directory imports (import statements folded onto directories):', ...list.slice(0, MAX_NOTES).map(([e, n]) => `- ${e} (${n})`)].join('\n');
}

export function contextMarkdown(c: ShapedContext): string {
  const out = [`# Project context`, '', c.project_summary, '', '## Languages', ''];
  for (const [l, n] of Object.entries(c.summary.languages)) out.push(`- ${l}: ${n} file(s)`);
  out.push('', '## Packages', '');
  for (const p of c.summary.packages) out.push(`- ${p.name} (${p.kind}) — ${p.path}`);
  out.push('', '## Entry points', '');
  for (const e of c.summary.entry_points) out.push(`- ${e.file}${e.line ? `:${e.line}` : ''}${e.name ? ` \`${e.name}\`` : ''} — ${e.reason}`);
  out.push('', '## Elements', '');
  for (const e of c.elements) out.push(`- ${e.type} **${e.name}** — ${e.file}:${e.line}`);
  out.push('', '## Module dependencies', '');
  for (const [f, to] of Object.entries(c.dependencies)) out.push(`- ${f} → ${to.join(', ')}`);
  out.push('', '## Test patterns', '');
  for (const [name, p] of Object.entries(c.test_patterns)) out.push(`- ${name}: ${p.description} — ${p.files.join(', ')}`);
  out.push('', '## Architecture notes', '', c.architecture_notes);
  return out.join('\n') + '\n';
}
