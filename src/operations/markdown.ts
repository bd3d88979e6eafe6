/**
 * A generic markdown rendering of any result, used when an operation has no renderer of its own:
 * scalars as `key: value`, arrays of objects as lists, nested objects indented.
 */
export function genericMarkdown(value: unknown, title?: string): string {
  const out: string[] = [];
  if (title) out.push(`## ${title}`, '');
  render(value, 0, out);
  return out.join('\n').trimEnd() + '\n';
}

function render(value: unknown, depth: number, out: string[], key?: string): void {
  const pad = '  '.repeat(depth);
  const label = key === undefined ? '' : `**${key}**: `;
  if (value === null || value === undefined) return;
  if (typeof value !== 'object') {
    const s = String(value);
    if (s.includes('\n')) {
      out.push(`${pad}${label}`, '```', s, '```');
    } else {
      out.push(`${pad}- ${label}${s}`);
    }
    return;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push(`${pad}- ${label}(none)`);
      return;
    }
    if (value.every((v) => typeof v !== 'object' || v === null)) {
      out.push(`${pad}- ${label}${value.join(', ')}`);
      return;
    }
    if (key !== undefined) out.push(`${pad}- ${label}`);
    for (const item of value) {
      const summary = summarize(item);
      out.push(`${pad}  - ${summary}`);
      if (item && typeof item === 'object') {
        for (const [k, v] of Object.entries(item as Record<string, unknown>)) {
          if (SUMMARY_KEYS.includes(k)) continue;
          render(v, depth + 2, out, k);
        }
      }
    }
    return;
  }
  if (key !== undefined) out.push(`${pad}- ${label}`);
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    render(v, key === undefined ? depth : depth + 1, out, k);
  }
}

const SUMMARY_KEYS = ['name', 'kind', 'signature'];

function summarize(item: unknown): string {
  if (!item || typeof item !== 'object') return String(item);
  const o = item as Record<string, unknown>;
  const parts = [o.kind, o.name].filter((x) => typeof x === 'string').join(' ');
  const sig = typeof o.signature === 'string' ? ` — \`${o.signature}\`` : '';
  return parts ? `${parts}${sig}` : '';
}
