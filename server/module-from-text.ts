// A module's model from its text, and the state of a module read from disk: kept apart from
// analyser.ts, which decides when modules are read, checked and published.
import type { HookModule } from '../runtime/python/model';
import { buildModel } from '../runtime/python/build-model';
import { parse } from '../runtime/python/parser';
import { fileUri } from './convert';
import type { ModuleState } from './module-state';

/** The hook model of `text`; the parse tree is freed at once (it lives in WASM memory). */
export function modelOfText(text: string, file: string): HookModule {
  const tree = parse(text);
  try {
    return buildModel(tree, text, file);
  } finally {
    tree.delete();
  }
}

/** A module read from disk; what an earlier state of the file published (and its URI) is kept. */
export function diskModuleState(
  file: string,
  text: string,
  model: HookModule,
  c: Pick<ModuleState, 'engine' | 'root'>,
  prev: ModuleState | undefined,
): ModuleState {
  return {
    key: file,
    path: file,
    uri: prev?.uri ?? fileUri(file),
    text,
    model,
    engine: c.engine,
    root: c.root,
    diagnostics: prev?.diagnostics ?? [],
    modifySignature: prev?.modifySignature ?? '',
  };
}
