// Types for the plain-JS client matrix workspace (mcp-matrix-cases.mjs stays JS so that
// scripts/python-client-matrix.sh can run it under Node); the type-check of test/ reads this declaration.

/** `upstream`: a git repository (index_repo); `folder`: for index_folder. */
export interface MatrixWorkspace {
  root: string;
  upstream: string;
  folder: string;
}

export declare function makeMatrixWorkspace(dir: string): MatrixWorkspace;
