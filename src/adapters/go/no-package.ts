/**
 * gopls answers "no package metadata for file" (with code 0, so its text is the only sign) for a
 * file no package of the build holds: one its build constraints exclude, or one outside every
 * module. Such a file has no diagnostics and no references from the server.
 */
/** gopls's "no package metadata" for a file: no package of the build holds it (its `//go:build` line named when it has one). */
export function goNoPackageReason(lspMessage: string, text: string): string | undefined {
  if (!lspMessage.includes('no package metadata')) return undefined;
  const head = text.slice(0, Math.max(0, text.search(/^package /m)));
  const constraint = /^\/\/go:build .*$/m.exec(head)?.[0];
  return `no package metadata: gopls builds no package with this file${constraint ? ` (excluded by build tags: \`${constraint}\`)` : ''}, so it has no diagnostics and no references`;
}
