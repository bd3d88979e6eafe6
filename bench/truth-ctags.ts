/**
 * Outlines of the grammar-only languages (no server: the syntax tier alone) against universal-ctags,
 * an independent tagger, on real code the machine has (nothing fetched):
 *   java: OpenJDK 17's java.util and java.util.concurrent (lib/src.zip of the JDK);
 *   cpp:  libstdc++'s bits/*.h (/usr/include/c++/N/bits);
 *   cpp-other: libstdc++'s other headers (the standard headers, ext/, experimental/ …: no bits/);
 *   cpp-given: any folder of C++ given as $TRUTH_CTAGS_CPP (e.g. /usr/include/node: Node's and V8's headers).
 *   rust: the Rust standard library's alloc crate (Debian's rust-src: /usr/src/rustc-*);
 *   ruby: Ruby's standard library (libruby: /usr/lib/ruby/3.*);
 *   shell: bash-completion's completions (no extension and no shebang: copied with `.bash`);
 *   css:  rustdoc's style sheets (rustup's toolchain docs) and the CSS under node_modules.
 *   csharp: UniRx and UniTask, the .cs sources two npm packages ship (fetched with `npm pack`, pinned).
 * For each language, the ctags kinds that correspond to what lspgate indexes count (the others are
 * listed as excluded); a tag is found when lspgate's catalog has a symbol of the same file, line and
 * name (the last segment of a qualified name). Recall = found ctags tags / counted ctags tags;
 * precision = lspgate symbols that ctags also tags (any kind) / lspgate symbols, less the declarations a
 * language's rules say ctags does not tag (Rust's `const` items): each rule is applied only when ctags,
 * run on a small probe, indeed tags none of its names, and the table lists it with its count.
 *
 * Usage: npm run truth:ctags [-- java cpp cpp-other rust ruby shell css csharp] [--misses N] [--json FILE]
 * Without universal-ctags on PATH it says so loudly and exits 0 (apt-get install universal-ctags).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { looksMinified } from '../src/catalog/file-filter.js';
import { Gateway } from '../src/gateway/gateway.js';
import { withSyntaxTree } from '../src/syntax/syntax.js';
import { CORPORA, type Corpus, ctagsOf, lastSegment, type Tag } from './truth-ctags-corpora.js';
import type { UntaggedRule } from './truth-ctags-rules.js';

const WORK = process.env.LSPGATE_TRUTH_DIR ?? path.join(os.tmpdir(), 'lspgate-truth-ctags');

/** Whether ctags tags none of the probe's names (the rule's premise holds for this ctags). */
function probeHolds(rule: UntaggedRule, language: string): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-truth-probe-'));
  try {
    fs.writeFileSync(path.join(dir, rule.probe.file), rule.probe.text);
    const names = new Set(ctagsOf(dir, language).map((t) => t.name));
    return rule.probe.names.every((n) => !names.has(n));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function ctagsVersion(): string | undefined {
  try {
    const v = execFileSync('ctags', ['--version'], { encoding: 'utf8' });
    return v.startsWith('Universal Ctags') ? v.split('\n')[0] : undefined;
  } catch {
    return undefined;
  }
}

/** `file:line` of the lines inside text nodes that parsed (past a string's first line: the line a string opens on holds code) of the files ctags tagged. */
async function textLines(dir: string, tags: Tag[], spec: { grammar: string; types: string[] }): Promise<Set<string>> {
  const out = new Set<string>();
  const types = new Set(spec.types);
  for (const file of new Set(tags.map((t) => t.file))) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    await withSyntaxTree(spec.grammar, text, (root) => {
      const stack = [root];
      while (stack.length) {
        const n = stack.pop()!;
        // a "string" error recovery made of code is no evidence: only text nodes that parsed count
        if (n.type === 'ERROR') continue;
        if (types.has(n.type) && !n.hasError) {
          const first = n.type === 'heredoc_body' ? n.startPosition.row : n.startPosition.row + 1;
          for (let row = first; row <= n.endPosition.row; row++) out.add(`${file}:${row + 1}`);
          continue;
        }
        for (const c of n.children) if (c) stack.push(c);
      }
    });
  }
  return out;
}

/**
 * The corpus's counted kinds that this ctags does not define for its language (`ctags --list-kinds-full=Rust`): a
 * kind ctags never emits would count as a silent zero (ctags 5.9 has no Rust `trait`, its trait is `interface`).
 */
export function unknownKinds(c: Pick<Corpus, 'ctags' | 'kinds' | 'excluded'>): string[] {
  const out = execFileSync('ctags', [`--list-kinds-full=${c.ctags}`], { encoding: 'utf8' });
  const defined = new Set(
    out
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split(/\s+/)[1]),
  );
  return [...c.kinds, ...Object.keys(c.excluded)].filter((k) => !defined.has(k));
}

/** At most `n` of each kind, in order. */
function examplesByKind<T extends { kind: string }>(list: T[], n: number): T[] {
  const seen = new Map<string, number>();
  return list.filter((x) => {
    const k = seen.get(x.kind) ?? 0;
    seen.set(x.kind, k + 1);
    return k < n;
  });
}

interface Row {
  lang: string;
  source: string;
  files: number;
  ctags_tags: number;
  /** Files lspgate's catalog leaves out as minified, and ctags's tags there (out of the comparison). */
  minified_files: number;
  minified_tags: number;
  /** Files lspgate's file gate skips (generated by name, too large), and ctags's tags there (out of the comparison). */
  gated_files: string[];
  gated_tags: number;
  recall_found: number;
  recall: number;
  lspgate_symbols: number;
  precision_found: number;
  precision: number;
  excluded: Record<string, string>;
  /** lspgate symbols ctags does not tag, by rule, and how many each rule left out of precision. */
  untagged: Record<string, string>;
  missed: Record<string, number>;
  missed_examples: string[];
  extra_kinds: Record<string, number>;
  extra_examples: string[];
}

async function measure(c: Corpus, showMisses: number): Promise<Row | undefined> {
  const dir = path.join(WORK, c.lang);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(`${dir}.unzip`, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  if (!c.prepare(dir)) {
    process.stderr.write(`truth-ctags: ${c.lang}: no corpus on this machine (${c.source}); skipped\n`);
    return undefined;
  }
  // lspgate's catalog leaves minified files out by design (one-line bundles: rustdoc's static.files/*.css): their tags are out of the comparison, counted in the table
  const minified = new Set<string>();
  const allTags = ctagsOf(dir, c.ctags, c.ctagsArgs);
  for (const file of new Set(allTags.map((t) => t.file))) if (looksMinified(fs.readFileSync(path.join(dir, file)))) minified.add(file);
  const inText = c.textNodes ? await textLines(dir, allTags, c.textNodes) : new Set<string>();
  const falseLines = c.falseLines ? await c.falseLines(dir, allTags) : new Set<string>();
  const falseRules = (await c.falseTagsOf?.(allTags, dir)) ?? [];
  const falseCounts = falseRules.map((r) => allTags.filter((t) => c.kinds.includes(t.kind) && r.test(t)).length);
  let tags = allTags.filter(
    (t) =>
      !c.falseTag?.(t) &&
      !falseRules.some((r) => r.test(t)) &&
      !minified.has(t.file) &&
      !inText.has(`${t.file}:${t.line}`) &&
      !falseLines.has(`${t.file}:${t.line}`),
  );
  const second = c.secondReading ? await c.secondReading(dir, allTags) : undefined;
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-truth-ctags-cache-'));
  const gateway = await Gateway.create({ root: dir, cacheDir });
  try {
    const r = await gateway.run('index_folder', { path: dir, output_format: 'json' });
    const files = Number(r.result.files);
    const ws = await gateway.workspaceFor(dir);
    const all = await ws.catalog.all();
    // and files its gate skips by name (`*.generated.cs`: generated code), or as too large: out of the comparison too, counted
    const cataloged = ws.catalog.files();
    const gated = new Set([...new Set(tags.map((t) => t.file))].filter((f) => !cataloged.has(f)));
    tags = tags.filter((t) => !gated.has(t.file));
    const kept = all.filter((s) => !c.notTagged?.[s.kind]);
    const counted0 = tags.filter((t) => c.kinds.includes(t.kind) && !c.excludedTags?.test(t));
    const untaggedCounts: Record<string, string> = {};
    let symbols = kept;
    for (const rule of c.untagged ?? []) {
      if (!probeHolds(rule, c.ctags)) {
        untaggedCounts[rule.what] = 'not applied: this ctags tags the probe';
        continue;
      }
      const out = await rule.select(dir, counted0, kept);
      const before = symbols.length;
      symbols = symbols.filter((s) => !out(s));
      untaggedCounts[rule.what] = `${rule.why} (${before - symbols.length} symbols)`;
    }
    // a symbol's line is where its range starts (annotations, templates, doc attributes included): the name's line counts too
    const namesOf = (s: (typeof all)[number]) => [...new Set([s.name, lastSegment(s.name), c.symbolName?.(s.name)].filter((n): n is string => !!n))];
    const keysOf = (s: (typeof all)[number]) => namesOf(s).flatMap((n) => [`${s.file}:${s.line}:${n}`, `${s.file}:${s.selection_line}:${n}`]);
    const nameOfTag = (t: Tag) => c.tagName?.(t) ?? t.name;
    const mine = new Set(all.flatMap(keysOf));
    const theirs = new Set([...tags, ...(second?.tags ?? [])].map((t) => `${t.file}:${t.line}:${nameOfTag(t)}`));
    // containment (CSS): a rule whose lines hold the tag's line and whose selector list holds its name
    const byFile = new Map<string, (typeof all)[number][]>();
    for (const s of all) byFile.set(s.file, [...(byFile.get(s.file) ?? []), s]);
    const tagLines = new Set(tags.map((t) => `${t.file}:${t.line}`));
    const found = (t: Tag) =>
      mine.has(`${t.file}:${t.line}:${nameOfTag(t)}`) ||
      (!!c.byContainment && (byFile.get(t.file) ?? []).some((s) => s.line <= t.line && t.line <= s.end_line && s.name.includes(t.name)));
    const tagged = (s: (typeof all)[number]) =>
      keysOf(s).some((k) => theirs.has(k)) || (!!c.byContainment && (tagLines.has(`${s.file}:${s.line}`) || tagLines.has(`${s.file}:${s.selection_line}`)));
    const counted = counted0;
    const missedTags = counted.filter((t) => !found(t));
    const extras = symbols.filter((s) => !tagged(s));
    const missed: Record<string, number> = Object.create(null) as Record<string, number>;
    for (const t of missedTags) missed[t.kind] = (missed[t.kind] ?? 0) + 1;
    const extraKinds: Record<string, number> = Object.create(null) as Record<string, number>;
    for (const s of extras) extraKinds[s.kind] = (extraKinds[s.kind] ?? 0) + 1;
    const pct = (a: number, b: number) => (b ? Math.round((a / b) * 10000) / 100 : 100);
    return {
      lang: c.lang,
      source: c.source,
      files,
      ctags_tags: counted.length,
      minified_files: minified.size,
      minified_tags: allTags.filter((t) => minified.has(t.file) && c.kinds.includes(t.kind)).length,
      gated_files: [...gated].sort(),
      gated_tags: allTags.filter((t) => gated.has(t.file) && c.kinds.includes(t.kind)).length,
      recall_found: counted.length - missedTags.length,
      recall: pct(counted.length - missedTags.length, counted.length),
      lspgate_symbols: symbols.length,
      precision_found: symbols.length - extras.length,
      precision: pct(symbols.length - extras.length, symbols.length),
      untagged: untaggedCounts,
      excluded: {
        ...c.excluded,
        ...(c.excludedTags
          ? { [c.excludedTags.what]: `${c.excludedTags.why} (${tags.filter((t) => c.kinds.includes(t.kind) && c.excludedTags!.test(t)).length} tags)` }
          : {}),
        ...Object.fromEntries(falseRules.map((r, i) => [`false tags: ${r.what}`, `${r.why} (${falseCounts[i]} tags of counted kinds)`])),
        ...(second ? { 'second reading (precision only)': second.why } : {}),
      },
      missed,
      missed_examples: examplesByKind(missedTags, showMisses).map((t) => `${t.file}:${t.line} ${t.kind} ${t.name}`),
      extra_kinds: extraKinds,
      extra_examples: examplesByKind(extras, showMisses).map((s) => `${s.file}:${s.line} ${s.kind} ${s.name}`),
    };
  } finally {
    await gateway.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const version = ctagsVersion();
  if (!version) {
    process.stderr.write('\n*** truth-ctags SKIPPED: universal-ctags is not on PATH (apt-get install -y universal-ctags) ***\n\n');
    return;
  }
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args.splice(i, 2)[1] : undefined;
  };
  const jsonFile = flag('--json');
  const showMisses = Number(flag('--misses') ?? 10);
  const only = new Set(args);
  const rows: Row[] = [];
  const chosen = CORPORA.filter((c) => !only.size || only.has(c.lang));
  const wrong = chosen.map((c) => ({ lang: c.lang, kinds: unknownKinds(c) })).filter((w) => w.kinds.length);
  if (wrong.length) {
    for (const w of wrong) process.stderr.write(`truth-ctags: ${w.lang}: kinds this ctags does not define: ${w.kinds.join(', ')}\n`);
    throw new Error('the kind mapping names kinds ctags never emits (they would count as a silent zero): fix it from ctags --list-kinds-full');
  }
  for (const c of chosen) {
    const row = await measure(c, showMisses);
    if (row) rows.push(row);
  }
  process.stdout.write(
    `truth: ${version}\n\n| language | corpus | files | ctags tags | recall | lspgate symbols | precision |\n|---|---|---|---|---|---|---|\n`,
  );
  for (const r of rows) {
    process.stdout.write(
      `| ${r.lang} | ${r.source} | ${r.files} | ${r.ctags_tags} | ${r.recall}% (${r.recall_found}) | ${r.lspgate_symbols} | ${r.precision}% (${r.precision_found}) |\n`,
    );
  }
  for (const r of rows) {
    process.stdout.write(
      `\n## ${r.lang}\nlspgate kinds ctags does not tag (out of precision): ${JSON.stringify(CORPORA.find((c) => c.lang === r.lang)?.notTagged ?? {})}\nexcluded ctags kinds: ${
        Object.entries(r.excluded)
          .map(([k, why]) => `${k} (${why})`)
          .join('; ') || 'none'
      }\nlspgate symbols ctags does not tag (out of precision, each rule checked on a probe): ${
        Object.entries(r.untagged)
          .map(([k, why]) => `${k} (${why})`)
          .join('; ') || 'none'
      }\nminified files left out (lspgate's catalog skips them): ${r.minified_files} files, ${r.minified_tags} ctags tags\nfiles lspgate's file gate skips (generated, too large): ${
        r.gated_files.length
      } files, ${r.gated_tags} ctags tags${r.gated_files.length ? ` (${r.gated_files.slice(0, 5).join(', ')})` : ''}\n`,
    );
    process.stdout.write(`missed by kind: ${JSON.stringify(r.missed)}\n${r.missed_examples.map((e) => `  miss ${e}`).join('\n')}\n`);
    process.stdout.write(`not in ctags by kind: ${JSON.stringify(r.extra_kinds)}\n${r.extra_examples.map((e) => `  extra ${e}`).join('\n')}\n`);
  }
  if (jsonFile) fs.writeFileSync(jsonFile, JSON.stringify(rows, null, 2));
}

main().catch((e: unknown) => {
  process.stderr.write(`truth-ctags failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exitCode = 1;
});
