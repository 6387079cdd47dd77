// Local names that stand for one expression: `args = context.arguments`, `value = result.value`.
// A name counts only when every binding of it in the body is that plain assignment (a name also
// bound by a loop, `with … as`, `:=`, unpacking or another assignment may hold something else).
import type { BodyFacts, LocalBinding } from '../../python/model';

type Value = NonNullable<LocalBinding['value']>;

/** The bindings of `name` when every one is `name = <value>` with `test(value)`; else undefined. */
export function boundOnlyTo(
  body: BodyFacts,
  name: string,
  test: (value: Value) => boolean,
): LocalBinding[] | undefined {
  const own = body.bindings.filter((b) => b.target === name);
  if (!own.length) return undefined;
  return own.every((b) => b.value && test(b.value)) ? own : undefined;
}

/** Names (and `self.x`) bound only to the expression written `source` (whitespace ignored). */
export function aliasesOf(body: BodyFacts, source: string): string[] {
  const targets = new Set(body.bindings.filter((b) => b.value?.text === source).map((b) => b.target));
  return [...targets].filter((t) => boundOnlyTo(body, t, (v) => v.text === source));
}
