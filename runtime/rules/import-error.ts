// import-error: a module-level import the user's interpreter cannot resolve. The engine imports
// every hook module at `rasa train` and load time, and an ImportError there fails both.
import type { Range } from '../python/model';
import type { Rule, RuleContext } from './rule';
import { cayuLayoutIssues } from './util/cayu-layout';
import { fix, q, reportMessage } from './util/diagnostic';

/**
 * Modules Hooksmith's shims serve when the real package is absent
 * (runtime/host/python/_hooksmith_host/shim_finder.py).
 */
export const SHIM_MODULES: readonly string[] = [
  'rasa',
  'rasa.mantle',
  'rasa.mantle.hooks',
  'cayu',
  'cayu.runtime',
  'cayu.runtime.hooks',
  'cayu.core',
  'cayu.core.tools',
  'cayu.core.events',
  'cayu._validation',
  'cayu.observability',
  'cayu.observability.hooks',
  'cayu.tools',
  'cayu.tools.base',
  'cayu.events',
];
const SHIMMED = new Set(SHIM_MODULES);

/**
 * What each engine package installs with it (its declared dependencies that hook modules import):
 * where the engine itself is absent from the interpreter, these are absent for the same reason.
 */
const ENGINE_DEPENDENCIES: Readonly<Record<'rasa' | 'cayu', readonly string[]>> = {
  rasa: ['structlog', 'pydantic'],
  cayu: ['httpx', 'jsonschema', 'pydantic', 'certifi'],
};
const PACKAGE_NAME = { rasa: 'rasa-pro', cayu: 'cayu' } as const;

function topPackage(module: string): string {
  return module.split('.', 1)[0]!;
}

/** The engine package (`rasa` or `cayu`) whose absence explains a missing import, if any. */
function absentEngineBehind(
  module: string,
  engines: ReadonlySet<'rasa' | 'cayu'>,
  installed: (pkg: 'rasa' | 'cayu') => boolean,
): 'rasa' | 'cayu' | undefined {
  const top = topPackage(module);
  if ((top === 'rasa' || top === 'cayu') && !installed(top)) return top;
  for (const engine of engines) {
    if (!installed(engine) && ENGINE_DEPENDENCIES[engine].includes(top)) return engine;
  }
  return undefined;
}

/** The module name's range: the name after `from`, or the imported module of `import M`. */
function moduleRange(ctx: RuleContext, statement: Range, module: string, fallback: Range): Range {
  const line = ctx.text.split('\n', statement.start.line + 1)[statement.start.line] ?? '';
  const m = /^(\s*from\s+)(\S+)/.exec(line.slice(statement.start.character));
  if (!m || m[2] !== module) return fallback;
  const start = statement.start.character + m[1]!.length;
  return {
    start: { line: statement.start.line, character: start },
    end: { line: statement.start.line, character: start + module.length },
  };
}

export const importError: Rule = {
  code: 'import-error',
  engine: 'python',
  severity: 'error',
  title: 'The interpreter cannot resolve this import',
  docs: {
    what: "A module-level import of a hook module that the selected interpreter cannot find: `import no_such_module`, a package that is not installed, a relative import of a file that does not exist. Agent code is looked up as the engine loads it (the agent root and `lib/`), everything else with `importlib.util.find_spec` in the user's interpreter, without executing the hook module. Checked only when an interpreter is known and the module has no syntax error; imports nested in `try:` or `if` blocks are left alone (they are usually guarded). Where the engine package itself (`rasa-pro` or `cayu`) is not installed, its modules and the dependencies it installs (`structlog`, `pydantic`, `httpx`, …) cannot be judged: an information instead of an error. Loose Cayu files are imported as from their project's root (the nearest folder above them with `pyproject.toml`, `setup.py`, `setup.cfg` or `.git`), as a test runner would. Cayu's import layout changed after 0.3 (the hook API moved from `cayu.runtime.hooks` to `cayu.observability.hooks`, ToolResult from `cayu.core.tools` to `cayu.tools.base`, events from `cayu.core.events` to `cayu.events`): once a Cayu line is known (the installed cayu's layout, `hooksmith.cayu.apiLine`, `--cayu-line`), a hook-API name, `ToolResult` or `Event` imported from the other layout's module is an error too, with a quick fix to the line's module (no interpreter needed).",
    why: "The engine imports every hook module when it validates the agent (`rasa train`) and when it loads the model: an ImportError there fails both, and none of the module's hooks register. `hooksmith simulate` refuses the same agent.",
    spec: 'spec/mantle-hooks.md, Validation: "Validation checks: import and syntax errors". Layout: "Shared project code under `lib/` is importable during hook module loading".',
    fix: "Install the package into the interpreter the agent runs with (and select that interpreter in VS Code), fix the module name, or move shared code under `lib/`. For a Cayu path of the other layout, the quick fix imports from the selected line's module (`from cayu.observability import RuntimeHook` on cayu 0.9 and newer, `from cayu.runtime.hooks import RuntimeHook` on 0.3).",
    example: {
      bad: `import htpx
from rasa.mantle.hooks import ToolCallPayload, on_tool_call


@on_tool_call()
async def audit(call: ToolCallPayload) -> None:
    async with htpx.AsyncClient() as client:
        await client.post("https://audit.example.com/calls", json={"tool": call.tool_name})
`,
      good: `import httpx
from rasa.mantle.hooks import ToolCallPayload, on_tool_call


@on_tool_call()
async def audit(call: ToolCallPayload) -> None:
    async with httpx.AsyncClient() as client:
        await client.post("https://audit.example.com/calls", json={"tool": call.tool_name})
`,
    },
  },
  fixable: true,
  messages: {
    cayuModuleMissing:
      '{{module}} does not exist on {{home}}: importing it raises ImportError; the module is {{to}} there.',
    cayuNameElsewhere:
      '{{name}} is not in {{module}} on {{home}}: importing it raises ImportError when the module loads; import it from {{to}}.',
    shimmedEngineAbsent:
      "{{module}} is not installed in the selected Python interpreter: Hooksmith's shim stands in for it when it runs hooks, but the engine needs the real package (pip install {{package}}).",
    engineDependencyAbsent:
      '{{module}} comes with {{package}}, which is not installed in the selected Python interpreter: Hooksmith cannot check this import (pip install {{package}}).',
    cannotImport: '{{module}} cannot be imported by the selected Python interpreter: {{consequence}}',
  },
  check(ctx) {
    if (ctx.module.syntaxErrors.length) return [];
    const out = [];
    const seen = new Set<string>();
    // The selected Cayu line's import paths: known without asking the interpreter.
    for (const issue of cayuLayoutIssues(ctx.module.imports)) {
      const b = issue.binding;
      seen.add(`${b.statementRange.start.line}:${b.module}`);
      // The name is flagged; the fix rewrites the module (`from cayu.observability` → `from cayu.runtime.hooks`).
      const moduleAt =
        b.importedName === undefined
          ? b.nameRange
          : moduleRange(ctx, b.statementRange, b.module, b.nameRange);
      const to = issue.replacement;
      const fixes =
        to && moduleAt !== b.nameRange
          ? [fix(`Import from ${to}`, [{ range: moduleAt, newText: to }], true)]
          : to && b.importedName === undefined
            ? [fix(`Import ${to}`, [{ range: moduleAt, newText: to }])]
            : [];
      out.push(reportMessage(this, ctx, b.nameRange, issue.messageId, issue.data, { fixes }));
    }
    const env = ctx.environment;
    // No interpreter known, or the engine would stop at a syntax error first.
    if (!env) return out;
    const path = ctx.module.path;
    const engines = new Set<'rasa' | 'cayu'>();
    for (const b of ctx.module.imports) {
      const top = topPackage(b.module);
      if (top === 'rasa' || top === 'cayu') engines.add(top);
    }
    // Not the folder check imports get: an empty `cayu/` beside the module is no installed engine.
    const installed = (pkg: 'rasa' | 'cayu') =>
      (env.engineInstalled ? env.engineInstalled(pkg) : env.resolves(pkg, path)) !== false;
    const consequence = engines.has('cayu')
      ? 'loading this module raises ImportError, and none of its hooks take part in a session.'
      : 'loading this hook module raises ImportError, which fails rasa train and model load.';
    for (const b of ctx.module.imports) {
      // Indented: inside a try/if at module level (a guarded or conditional import).
      if (!b.moduleLevel || b.statementRange.start.character !== 0) continue;
      if (b.module === '__future__') continue;
      const key = `${b.statementRange.start.line}:${b.module}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (env.resolves(b.module, ctx.module.path) !== false) continue;
      const range =
        b.importedName === undefined
          ? b.nameRange
          : moduleRange(ctx, b.statementRange, b.module, b.nameRange);
      const absent = absentEngineBehind(b.module, engines, installed);
      if (absent) {
        // The engine is not installed here: the import cannot be judged, only explained.
        if (!env.reportShimmed) continue;
        const pkg = PACKAGE_NAME[absent];
        const id = SHIMMED.has(b.module) ? 'shimmedEngineAbsent' : 'engineDependencyAbsent';
        const d = reportMessage(this, ctx, range, id, { module: q(b.module), package: pkg });
        d.severity = 'information';
        d.absentEnginePackage = pkg;
        out.push(d);
        continue;
      }
      out.push(reportMessage(this, ctx, range, 'cannotImport', { module: q(b.module), consequence }));
    }
    return out;
  },
};
