// coverage_report, project_context and validate_references on real code that is not part of lspgate,
// through an in-process Gateway (what the CLI and MCP call). Build first (npm run build).
//   node scripts/try-project-reports.mjs DIR [DIR ...]
// Prints, per workspace: files, timings, coverage mode and overall, untested files, elements, packages,
// entry points, dependency files, test patterns, unresolved references by kind and code.
// Used on copies of zod's src/v4 (node_modules/zod), GOROOT net/url (with a `go test -coverprofile`
// coverage.out) and the Python stdlib json package.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { Gateway } = await import(pathToFileURL(path.join(HERE, 'dist/src/gateway/gateway.js')).href);

async function timed(gw, op, input) {
  const t = performance.now();
  const { result } = await gw.run(op, { ...input, output_format: 'json' });
  return { r: result, ms: Math.round(performance.now() - t) };
}

for (const dir of process.argv.slice(2)) {
  const root = fs.realpathSync(dir);
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-try-'));
  const gw = await Gateway.create({ root, cacheDir });
  try {
    const ctx = await timed(gw, 'project_context', { max_elements: 5000, max_dependencies: 5000 });
    const c = ctx.r.context;
    console.log(`\n## ${root}\nproject_context ${ctx.ms} ms (cold catalog + import graph): ${c.project_summary}`);
    console.log(
      `  packages ${c.summary.packages.length}, entry points ${c.summary.entry_points.length}, elements ${ctx.r.total_elements}, dependency files ${ctx.r.total_dependency_files}, edges ${Object.values(c.dependencies).flat().length}`,
    );
    console.log(
      `  test patterns: ${
        Object.entries(c.test_patterns)
          .map(([k, p]) => `${k} ${p.usage}`)
          .join(', ') || '(none)'
      }`,
    );
    const cov = await timed(gw, 'coverage_report', { max_results: 1000 });
    console.log(
      `coverage_report ${cov.ms} ms: mode ${cov.r.mode}, overall ${cov.r.coverage.overall} (${cov.r.covered}/${cov.r.total}), files ${cov.r.total_files}, untested ${cov.r.total_untested_files}, scanned ${cov.r.scanned}, skipped ${cov.r.skipped}, without data ${cov.r.files_without_data.length}`,
    );
    const val = await timed(gw, 'validate_references', { max_files: 5000, max_results: 1000 });
    const v = val.r.validation;
    const by = {};
    for (const e of v.errors) by[`${e.kind} ${e.code ?? '-'} ${e.sources.join('+')}`] = (by[`${e.kind} ${e.code ?? '-'} ${e.sources.join('+')}`] ?? 0) + 1;
    console.log(
      `validate_references ${val.ms} ms: ${val.r.files_checked}/${val.r.files_matched} files, valid ${v.valid_references}, invalid ${v.invalid_references}, failed ${val.r.failed.length}`,
    );
    for (const [k, n] of Object.entries(by).sort()) console.log(`  ${n} × ${k}`);
    for (const e of v.errors.slice(0, 8)) console.log(`  e.g. ${e.file}:${e.line} ${e.reference} — ${e.error.slice(0, 100)}`);
  } finally {
    await gw.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}
