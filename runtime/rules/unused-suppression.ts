// unused-suppression: a `# hooksmith: ignore[code]` that ignores nothing. Reported by
// runtime/analysis/suppression.ts once every other rule ran (it needs their diagnostics); this entry
// gives the code its place in the registry, the settings and the rule reference.
import type { Rule } from './rule';

export const unusedSuppression: Rule = {
  code: 'unused-suppression',
  engine: 'python',
  severity: 'information',
  title: 'A suppression comment that suppresses nothing',
  docs: {
    what: 'A code in `# hooksmith: ignore[code, …]` (on a line) or `# hooksmith: ignore-file[code, …]` (anywhere in the file) for which there is no diagnostic to ignore: on that line, or in the file. Suppressions are honoured by the editor and by `hooksmith check` alike; the comment must name the codes (there is no blanket ignore).',
    why: 'A suppression outlives the problem it hid: once the code is fixed the comment only waits to hide the next, real problem on that line. Reporting it keeps the ignores honest, as ruff does for an unused `# noqa`.',
    spec: 'Hooksmith convention (no engine rule): suppressions follow ruff (`# noqa: CODE`) and ESLint (`// eslint-disable-line rule`).',
    fix: 'Remove the code from the comment, or the whole comment (the quick fix does either). To suppress a diagnostic, use its quick fix "Ignore <code> on this line" or "… in this file".',
    example: {
      bad: `from rasa.mantle.hooks import TurnStartedPayload, on_turn_started


@on_turn_started()
async def started(payload: TurnStartedPayload) -> None:  # hooksmith: ignore[sync-handler]
    return None
`,
      good: `from rasa.mantle.hooks import TurnStartedPayload, on_turn_started


@on_turn_started()
async def started(payload: TurnStartedPayload) -> None:
    return None
`,
    },
  },
  fixable: true,
  // Filled by runtime/analysis/suppression.ts, which reports this code.
  messages: {
    unusedOnLine: 'Unused suppression: no {{code}} diagnostic on this line to ignore.',
    unusedInFile: 'Unused suppression: no {{code}} diagnostic in this file to ignore.',
  },
  check() {
    return [];
  },
};
