// Which files are hook modules and which agent they belong to, for the server: the loader's
// rule for Mantle (runtime/workspace/discovery.ts), a RuntimeHook subclass for Cayu. Agent-root lookups
// hit the disk, so they are cached per folder until a file is created or deleted.
import * as path from 'node:path';
import { findAgentRoot, isMantleModulePath, nodeFs } from '../runtime/workspace/discovery';
import type { HookModule } from '../runtime/python/model';
import { definesRuntimeHook } from '../runtime/python/hooks';

export type HookEngine = 'mantle' | 'cayu' | 'none';

export interface Classification {
  engine: HookEngine;
  /** Agent root (Mantle), or the agent root above / the folder of a Cayu file. */
  root: string;
}

export class HookFiles {
  private rootByDir = new Map<string, string | undefined>();
  /** Extra agent roots from settings (absolute). */
  extraRoots: string[] = [];

  /** Forget cached agent roots (a file or folder was created or deleted). */
  invalidate(): void {
    this.rootByDir.clear();
  }

  agentRootOf(file: string): string | undefined {
    for (const r of this.extraRoots) if (isMantleModulePath(r, file)) return r;
    const dir = path.dirname(file);
    if (!this.rootByDir.has(dir)) this.rootByDir.set(dir, findAgentRoot(file, nodeFs));
    return this.rootByDir.get(dir);
  }

  /** `file` is a path, or undefined for a buffer that is not on disk (untitled). */
  classify(file: string | undefined, model: HookModule): Classification {
    if (file) {
      const root = this.agentRootOf(file);
      if (root && isMantleModulePath(root, file)) return { engine: 'mantle', root };
      if (definesRuntimeHook(model)) return { engine: 'cayu', root: root ?? path.dirname(file) };
      return { engine: 'none', root: root ?? path.dirname(file) };
    }
    return { engine: definesRuntimeHook(model) ? 'cayu' : 'none', root: '' };
  }
}
