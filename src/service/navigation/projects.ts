/**
 * The server's project of each file a callers walk asks about, where its adapter can say
 * (adapters: projectFiles). tsserver answers incoming calls from the default project of the callee's
 * file: a caller in one of that project's files is in the hierarchy already, so opening it or
 * checking its call sites against references only costs (on a 300-file package, every item of a
 * depth-2 walk asked references across the project: minutes). One request per project and walk:
 * a file already in a project learned here is answered from it.
 */
import { adapterFor } from '../../adapters/index.js';
import type { LspSession } from '../../lsp/types.js';
import { pathOfUri } from '../../util/uri.js';
import type { ServiceCall } from '../call.js';

export class ProjectFiles {
  private readonly known: ReadonlySet<string>[] = [];
  private readonly asked = new Map<string, Promise<ReadonlySet<string> | undefined>>();

  constructor(
    private readonly call: ServiceCall,
    private readonly session: LspSession,
  ) {}

  /** The files of the project answering for the file of `uri`, or undefined when the server does not say. */
  async of(uri: string): Promise<ReadonlySet<string> | undefined> {
    const ask = adapterFor(this.session.entry.adapter).projectFiles;
    const abs = pathOfUri(uri);
    if (!ask || !abs) return undefined;
    const known = this.known.find((p) => p.has(abs));
    if (known) return known;
    let p = this.asked.get(abs);
    if (!p) {
      // a server that cannot say for this file (not open, no project) leaves the walk as without it
      p = ask(this.session, abs, this.call.signal).then(
        (files) => {
          if (files) this.known.push(files);
          return files;
        },
        () => undefined,
      );
      this.asked.set(abs, p);
    }
    return p;
  }
}
