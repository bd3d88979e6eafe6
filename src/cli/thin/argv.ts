/**
 * Common flags written before the command word (`lspgate --root DIR search_symbols x`, as git and npm
 * take them) are moved after it, where every command reads them: without this the first flag was
 * taken for an operation's name and the call failed with UNKNOWN_OPERATION.
 */

/** Common flags that take a value (`--root DIR` or `--root=DIR`). */
const VALUED = new Set(['root', 'servers', 'daemon', 'server-start', 'tools', 'flow-corpus', 'policy']);
/** Common flags that take none. */
const SWITCHES = new Set(['json']);

/** `argv` with its leading common flags after the command word; as it is when no command word follows them. */
export function commandFirst(argv: readonly string[]): string[] {
  const lead: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const a = argv[i]!;
    if (!a.startsWith('--')) break;
    const name = a.slice(2).split('=')[0]!;
    if (SWITCHES.has(name) && !a.includes('=')) lead.push(a);
    else if (VALUED.has(name) && a.includes('=')) lead.push(a);
    else if (VALUED.has(name) && i + 1 < argv.length) lead.push(a, argv[++i]!);
    else return [...argv];
    i++;
  }
  if (lead.length === 0 || i >= argv.length) return [...argv];
  return [argv[i]!, ...lead, ...argv.slice(i + 1)];
}
