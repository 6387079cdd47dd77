// Reads example files through the real parser (for tests about the examples themselves).
import { readFileSync } from 'node:fs';
import { parseModule as parseText } from '../../runtime/analysis';
import type { HookModule } from '../../runtime/python/model';
import { phaseMethods } from '../../runtime/python/hooks';

export function parseModule(path: string): HookModule {
  return parseText(readFileSync(path, 'utf8'), path);
}

export function phaseMethodsOf(module: HookModule): string[] {
  return phaseMethods(module).map((p) => p.phase.id);
}
