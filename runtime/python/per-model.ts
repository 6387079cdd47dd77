// Values computed at most once per model and shared by every rule (and the language server):
// the hooks of a module, its bound names, its phase methods… Models are never changed once
// built (a new text gets a new model), so a value stays valid as long as its model lives.
//
// All values of one model sit in one record, kept on the model itself under a symbol (not
// enumerable: JSON, structured clone and deep-equal do not see it), and the model the rules are
// looking at right now is remembered so the ~30 lookups of one analysis skip even that.
//
// Not a WeakMap: V8's young-generation GC keeps a WeakMap's values alive, so every model built
// since the last full GC survived each scavenge with its record and was copied again, which
// slowed every later model build.
// A value read off the catalogue (which decorators are hooks) is stale once another engine line
// is selected: the record remembers the catalogue generation it was computed in.
import type { HookModule } from './model';
import { catalogueGeneration } from '../catalogue/api-lines';

const RECORD = Symbol('hooksmith.perModel');
/** For a model that cannot take the property (frozen): the WeakMap after all. */
const records = new WeakMap<HookModule, unknown[]>();
// The last model asked about (kept alive until another one is asked about).
let lastModule: HookModule | undefined;
let lastRecord: unknown[] = [];
let lastGeneration = catalogueGeneration();
const GENERATION = Symbol('hooksmith.perModel.generation');
let slotCount = 0;

function recordOf(module: HookModule): unknown[] {
  const generation = catalogueGeneration();
  if (module === lastModule && generation === lastGeneration) return lastRecord;
  const holder = module as HookModule & { [RECORD]?: unknown[] };
  let record = holder[RECORD] ?? records.get(module);
  if (!record) {
    record = [];
    if (Object.isExtensible(module))
      Object.defineProperty(module, RECORD, {
        value: record,
        enumerable: false,
        writable: false,
        configurable: false,
      });
    else records.set(module, record);
  }
  const stamped = record as unknown[] & { [GENERATION]?: number };
  if (stamped[GENERATION] !== generation) {
    record.length = 0;
    stamped[GENERATION] = generation;
  }
  lastModule = module;
  lastGeneration = generation;
  lastRecord = record;
  return record;
}

/**
 * `compute` memoised per model: the returned function computes on first call for a model and
 * returns the same value after. `compute` must not return undefined; callers must not modify
 * what it returns (it is shared).
 */
export function perModel<T>(compute: (module: HookModule) => T): (module: HookModule) => T {
  const slot = slotCount++;
  return (module) => {
    const record = recordOf(module);
    let value = record[slot] as T | undefined;
    if (value === undefined) {
      value = compute(module);
      record[slot] = value;
    }
    return value;
  };
}
