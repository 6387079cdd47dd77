// unknown-import: a name imported from rasa.mantle.hooks that the module does not export.
import { CONTROL_SIGNALS, HOOK_DECORATORS, MANTLE_MODULE, PAYLOAD_TYPE_NAMES } from '../catalogue';
import type { TextEdit } from './diagnostics';
import type { NameRef, Range } from '../python/model';
import type { Rule } from './rule';
import { fix, q, reportMessage } from './util/diagnostic';
import { explainMissingName } from './util/near-miss';
import { activeMantleLine, renamedOnActiveLine } from '../catalogue/api-lines';
import type { HookDiagnostic } from './diagnostics';
import type { RuleContext } from './rule';
import type { ImportBinding } from '../python/model';
import { mantleExports } from './util/installed';
import { usesOf } from '../python/names';

/** Renames the import and, when it is not aliased, its uses (decorators, annotations, raises). */
function renameEdits(nameRange: Range, to: string, uses: NameRef[]): TextEdit[] {
  return [{ range: nameRange, newText: to }, ...uses.map((u) => ({ range: u.range, newText: to }))];
}

/**
 * An old spelling the selected line still accepts (its docs use both) but renamed: a warning with
 * the migrating fix. None on rasa-pro 3.21, which exports only the old names.
 */
function deprecatedSpelling(
  rule: Pick<Rule, 'code' | 'severity' | 'messages'>,
  ctx: RuleContext,
  b: ImportBinding,
): HookDiagnostic | undefined {
  const to = b.importedName && renamedOnActiveLine(b.importedName);
  if (!to) return undefined;
  const uses = b.localName === b.importedName ? usesOf(ctx.module, b.localName) : [];
  return {
    ...reportMessage(
      rule,
      ctx,
      b.nameRange,
      'renamed',
      { name: q(b.importedName!), line: activeMantleLine().title, to: q(to) },
      { tags: ['deprecated'], fixes: [fix(`Migrate to ${to}`, renameEdits(b.nameRange, to, uses), true)] },
    ),
    severity: 'warning',
  };
}

export const unknownImport: Rule = {
  code: 'unknown-import',
  engine: 'mantle',
  severity: 'error',
  title: 'Imported name does not exist in rasa.mantle.hooks',
  docs: {
    what: `\`from rasa.mantle.hooks import X\` where \`X\` is none of the module's exports (the ${HOOK_DECORATORS.length} decorators, ${PAYLOAD_TYPE_NAMES.length} payload types and ${CONTROL_SIGNALS.length} control signals), e.g. a misspelt \`on_turn_start\` or a non-existent \`modify_turn_started\`. Renamed names follow what rasa-pro ships: 3.21 exports \`modify_outgoing_text\`, \`on_outgoing_text\` and \`OutgoingTextPayload\` (rasa/mantle/hooks/__init__.py), so on the rasa-pro 3.21 line the newest docs' \`modify_outgoing_message\`, \`on_outgoing_message\` and \`OutgoingMessagePayload\` are reported and the message names the 3.21 name. On the newest docs' line both spellings are accepted (its pages still use the old ones); there an old name is a **warning** (tagged deprecated) whose quick fix migrates the import and every use to the new name; only when the installed \`rasa.mantle.hooks\` lacks an old name is it this error, naming the new one.`,
    why: "The import raises `ImportError` when the engine loads the hook module, so `rasa train` and model load fail and none of the module's hooks register.",
    spec: 'spec/mantle-hooks.md, Validation: "Validation checks: import and syntax errors". Registration: "Import the decorator you need directly from `rasa.mantle.hooks`."',
    fix: 'When the selected interpreter has the real `rasa.mantle.hooks`, its exports are the reference; otherwise the bundled catalogue (rasa-pro 3.21). Import a name the module exports. The quick fix replaces a near miss with the closest real name (by edit distance); a `modify_` name for an observe-only point (turn started / finished) is replaced by its `on_` decorator; a renamed name by the name the selected line spells, in the import and every use (decorators, annotations). The line is `hooksmith.mantle.apiLine` / `--mantle-line` when set, else the one the installed `rasa.mantle.hooks` speaks.',
    example: {
      bad: `from rasa.mantle.hooks import TurnStartedPayload, on_turn_start
`,
      good: `from rasa.mantle.hooks import TurnStartedPayload, on_turn_started
`,
    },
  },
  fixable: true,
  messages: {
    notExported: '{{name}} {{explanation}} Loading the module raises ImportError, which fails rasa train.',
    renamed:
      '{{name}} is deprecated on {{line}}: it is renamed {{to}} (a breaking rename in its changelog). Still accepted while its hooks page spells the old name; migrate.',
  },
  check(ctx) {
    const out = [];
    for (const b of ctx.module.imports) {
      if (b.module !== MANTLE_MODULE || b.importedName === undefined || b.isWildcard) continue;
      if (mantleExports(b.importedName, ctx.environment)) {
        const deprecated = deprecatedSpelling(this, ctx, b);
        if (deprecated) out.push(deprecated);
        continue;
      }
      const miss = explainMissingName(b.importedName, false);
      out.push(
        reportMessage(
          this,
          ctx,
          b.nameRange,
          'notExported',
          { name: q(b.importedName), explanation: miss.explanation },
          {
            fixes: miss.suggestion
              ? [
                  fix(
                    `Import ${miss.suggestion}`,
                    renameEdits(
                      b.nameRange,
                      miss.suggestion,
                      b.localName === b.importedName ? usesOf(ctx.module, b.localName) : [],
                    ),
                    true,
                  ),
                ]
              : [],
          },
        ),
      );
    }
    return out;
  },
};
