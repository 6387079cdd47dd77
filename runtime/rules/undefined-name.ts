// undefined-name: a name that Python evaluates while it imports the hook module and that nothing
// defines (pyflakes F821, restricted to import time: python/import-time-names.ts). The engine
// imports every hook module when it loads the agent; such a name fails the load with NameError.
import { CAYU_EXPORTS, MANTLE_MODULE, isMantleExport } from '../catalogue';
import { fromImportEdits, moduleImportEdits } from '../python/import-edits';
import type { HookModule, UndefinedNameContext } from '../python/model';
import { importsCayu } from '../python/hooks';
import type { Fix } from './diagnostics';
import type { Rule, RuleContext } from './rule';
import { spellCayuName } from './util/cayu-import-fix';
import { spellMantleName } from './util/mantle-import-fix';
import { fix, q, reportMessage } from './util/diagnostic';

const WHERE: Readonly<Record<UndefinedNameContext, string>> = {
  decorator: 'a decorator runs when its `def` does',
  annotation:
    'an annotation is evaluated when its `def` runs (add `from __future__ import annotations` to defer it)',
  default: 'a default value is evaluated when its `def` runs',
  'class-base': 'a base class is evaluated when the `class` statement runs',
  'class-body': 'a class body runs when the module is imported',
  'module-code': 'module-level code runs when the module is imported',
};

/** Names of `typing` a hook module commonly annotates with. */
const TYPING_NAMES = new Set([
  'Any',
  'Optional',
  'Union',
  'Dict',
  'List',
  'Tuple',
  'Set',
  'Callable',
  'Awaitable',
  'Mapping',
  'Sequence',
  'Literal',
  'TYPE_CHECKING',
  'cast',
]);
/** Standard-library modules used as `json.dumps(...)` at import time. */
const STDLIB_MODULES = new Set([
  'json',
  're',
  'os',
  'sys',
  'time',
  'asyncio',
  'logging',
  'typing',
  'functools',
]);

function importFix(module: HookModule, text: string, name: string, isMantleModule: boolean): Fix | undefined {
  if (isMantleExport(name) && (isMantleModule || !importsCayu(module))) {
    const spelled = spellMantleName(module, text, name);
    if (spelled.text === name && spelled.importEdits.length)
      return fix(`Import ${name} from ${MANTLE_MODULE}`, spelled.importEdits, true);
  }
  if (CAYU_EXPORTS.includes(name)) {
    const spelled = spellCayuName(module, text, name);
    if (spelled.text === name && spelled.importEdits.length)
      return fix(`Import ${name} from Cayu`, spelled.importEdits, true);
  }
  if (TYPING_NAMES.has(name)) {
    const edits = fromImportEdits(module, text, 'typing', [name]);
    if (edits.length) return fix(`Import ${name} from typing`, edits, true);
  }
  if (STDLIB_MODULES.has(name)) {
    const edits = moduleImportEdits(module, text, name);
    if (edits.length) return fix(`Import ${name}`, edits, true);
  }
  return undefined;
}

export const undefinedName: Rule = {
  code: 'undefined-name',
  engine: 'python',
  severity: 'error',
  title: 'A name evaluated at import time is not defined',
  docs: {
    what: "A name that Python looks up while it imports the hook module and that the module never defines, imports or gets from the builtins: in a decorator, a parameter's default value, a parameter or return annotation (unless `from __future__ import annotations` defers them, or the annotation is a string), a base class, a class body or module-level code. Function bodies are not checked: they run only when the hook is called. Like pyflakes' F821, restricted to import time, and conservative: a module with a star import, `globals()`, `exec` or `builtins` tricks gets no report, nor does code under `if`, `while`, `try` or `match` (it may not run), and a name bound anywhere at module level counts as defined.",
    why: "The engine imports every hook module when it validates and loads the agent (and the Cayu runtime when the app starts): a NameError there fails the load and none of the module's hooks register, while the hooks themselves look fine. A quick fix that adds an annotation without its import is the typical cause.",
    spec: 'spec/mantle-hooks.md, Validation: "Validation checks: import and syntax errors" — a module that cannot be imported fails validation; spec/cayu-runtime-hooks.md, RuntimeHook: hooks are classes the app imports and registers.',
    fix: 'Import the name (the quick fix does for the hook API\'s types and decorators, `typing` names and common standard-library modules), fix its spelling, quote the annotation (`"ToolCallPayload"`), or add `from __future__ import annotations` at the top of the module.',
    example: {
      bad: `from rasa.mantle.hooks import modify_tool_call


@modify_tool_call()
async def guard(call: ToolCallPayload) -> ToolCallPayload:
    return call
`,
      good: `from rasa.mantle.hooks import ToolCallPayload, modify_tool_call


@modify_tool_call()
async def guard(call: ToolCallPayload) -> ToolCallPayload:
    return call
`,
    },
  },
  fixable: true,
  messages: {
    notDefined:
      '{{name}} is not defined: {{where}}, so importing the module raises NameError and none of its hooks load.',
  },
  check(ctx: RuleContext) {
    const found = ctx.module.undefinedAtImport;
    if (!found?.length) return [];
    const sorted = [...found].sort(
      (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
    );
    return sorted.map((u) => {
      const f = importFix(ctx.module, ctx.text, u.name, ctx.isMantleModule);
      const data = { name: q(u.name), where: WHERE[u.context] };
      return reportMessage(this, ctx, u.range, 'notDefined', data, f ? { fixes: [f] } : {});
    });
  },
};
