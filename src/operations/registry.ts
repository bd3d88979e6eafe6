/**
 * The one table of operations. Each group lives in its own file under defs/ and exports an
 * array; add the group here and it appears in MCP, the sidecar, the REPL and the CLI at once.
 */
import { analysisOperations } from './defs/analysis.js';
import { chunkOperations } from './defs/chunks.js';
import { contextOperations } from './defs/context.js';
import { descriptorOperations } from './defs/descriptors.js';
import { moveFileOperations } from './defs/move-file.js';
import { navigationOperations } from './defs/navigation.js';
import { projectOperations } from './defs/project.js';
import { relationshipOperations } from './defs/relationships.js';
import { repositoryOperations } from './defs/repository.js';
import { searchOperations } from './defs/search.js';
import { serverKnowledgeOperations } from './defs/server-knowledge.js';
import { symbolEditOperations } from './defs/symbol-edits.js';
import { tagOperations } from './defs/tags.js';
import { workspaceOperations } from './defs/workspaces.js';
import type { Operation } from './types.js';

const groups: Operation[][] = [
  // navigation, descriptors, repository...: appended by each defs/ module
  repositoryOperations,
  searchOperations,
  descriptorOperations,
  navigationOperations,
  contextOperations,
  workspaceOperations,
  relationshipOperations,
  analysisOperations,
  projectOperations,
  serverKnowledgeOperations,
  symbolEditOperations,
  moveFileOperations,
  chunkOperations,
  tagOperations,
];

export const operations: readonly Operation[] = groups.flat();
