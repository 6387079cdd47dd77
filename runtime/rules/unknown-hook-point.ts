// unknown-hook-point: a decorator that means a hook but names no insertion point / lane.
import { findDecorator, HOOK_DECORATORS, isMantleExport, MANTLE_POINTS } from '../catalogue';
import type { HookDiagnostic } from './diagnostics';
import type { Decorator } from '../python/model';
import type { Rule, RuleContext } from './rule';
import { fix, q, reportMessage } from './util/diagnostic';
import { otherDecorators } from '../python/hooks';
import { spellMantleName } from './util/mantle-import-fix';
import {
  lastSegment,
  locallyBound,
  mantleMember,
  unimportedMantleName,
  wildcardMantleName,
} from '../python/names';
import { explainMissingName } from './util/near-miss';

const HOOKISH = /^(on|modify)_[A-Za-z0-9_]+$/;

export const unknownHookPoint: Rule = {
  code: 'unknown-hook-point',
  engine: 'mantle',
  severity: 'error',
  title: 'Decorator is not a Mantle hook point',
  docs: {
    what: `A decorator that resolves into \`rasa.mantle.hooks\` but is not one of its ${HOOK_DECORATORS.length} hook decorators (e.g. \`@mh.modify_turn_started()\` — turn points have no modify lane — or \`@mh.on_tool_calls()\`), an export used as a decorator (\`@RetryModel()\`), or an \`on_*\` / \`modify_*\` decorator that nothing imports. A real hook decorator used by its bare name without an import is reported here too (Hooksmith has no separate code for it): the fix adds the import.`,
    why: 'The engine validates hook points when it loads hook modules at `rasa train` and model load; an unknown point (or a name that fails with AttributeError / NameError) fails validation, and the function never runs.',
    spec: `spec/mantle-hooks.md, Validation: "Validation checks: … unknown hook points". Insertion points: the table lists the ${MANTLE_POINTS.length} points; turn started / finished have no modify decorator ("Neither point has a modify lane").`,
    fix: 'Use one of the decorators of the insertion-points table, imported from `rasa.mantle.hooks`. The quick fix replaces a near miss with the closest real decorator (by edit distance) and adds a missing import.',
    example: {
      bad: `import rasa.mantle.hooks as mh


@mh.modify_turn_started()
async def started(payload: mh.TurnStartedPayload) -> None:
    return None
`,
      good: `import rasa.mantle.hooks as mh


@mh.on_turn_started()
async def started(payload: mh.TurnStartedPayload) -> None:
    return None
`,
    },
  },
  fixable: true,
  messages: {
    notADecorator:
      '{{written}}: {{member}} is exported by `rasa.mantle.hooks` but is not a hook decorator; register hooks with an `on_*` or `modify_*` decorator.',
    unknownMember: '{{written}}: {{member}} {{explanation}}',
    notImported:
      '{{written}} is used without being imported: loading the module fails with NameError. Import it from `rasa.mantle.hooks`.',
    unknownName:
      '{{written}} {{explanation}} It is not imported either, so loading the module fails with NameError.',
  },
  check(ctx) {
    const out: HookDiagnostic[] = [];
    // Decorators that resolve through an import to a hook decorator are fine: not listed.
    for (const d of otherDecorators(ctx.module)) {
      const diag = checkDecorator(this, ctx, d);
      if (diag) out.push(diag);
    }
    return out;
  },
};

function checkDecorator(rule: Rule, ctx: RuleContext, d: Decorator): HookDiagnostic | undefined {
  const member = mantleMember(d.ref);
  const written = '@' + d.ref.text;
  if (member !== undefined) {
    if (findDecorator(member)) return undefined;
    // `from rasa.mantle.hooks import on_turn_start` then `@on_turn_start()`: unknown-import reports the import.
    if (!isMantleExport(member) && !d.ref.text.includes('.')) return undefined;
    if (isMantleExport(member)) {
      return reportMessage(rule, ctx, d.ref.range, 'notADecorator', {
        written: q(written),
        member: q(member),
      });
    }
    const miss = explainMissingName(member, true);
    const prefix = d.ref.text.slice(0, d.ref.text.length - member.length);
    const fixes = miss.suggestion
      ? [
          fix(
            `Use @${prefix}${miss.suggestion}()`,
            [{ range: d.ref.range, newText: prefix + miss.suggestion }],
            true,
          ),
        ]
      : miss.family.map((n) => fix(`Use @${prefix}${n}()`, [{ range: d.ref.range, newText: prefix + n }]));
    const data = { written: q(written), member: q(member), explanation: miss.explanation };
    return reportMessage(rule, ctx, d.ref.range, 'unknownMember', data, { fixes });
  }
  if (wildcardMantleName(ctx.module, d.ref) !== undefined && findDecorator(d.ref.text)) return undefined;
  const bare = unimportedMantleName(ctx.module, d.ref);
  if (bare !== undefined && findDecorator(bare)) {
    const spelled = spellMantleName(ctx.module, ctx.text, bare);
    const edits = [
      ...spelled.importEdits,
      ...(spelled.text !== bare ? [{ range: d.ref.range, newText: spelled.text }] : []),
    ];
    return reportMessage(
      rule,
      ctx,
      d.ref.range,
      'notImported',
      { written: q(written) },
      {
        fixes: [fix(`Import ${bare} from rasa.mantle.hooks`, edits, true)],
      },
    );
  }
  const text = d.ref.text;
  if (
    d.ref.qualified !== undefined ||
    text.includes('.') ||
    !HOOKISH.test(text) ||
    locallyBound(ctx.module, lastSegment(text))
  )
    return undefined;
  const miss = explainMissingName(text, true);
  const fixes = [];
  if (miss.suggestion) {
    const spelled = spellMantleName(ctx.module, ctx.text, miss.suggestion);
    fixes.push(
      fix(
        `Use @${spelled.text}()`,
        [...spelled.importEdits, { range: d.ref.range, newText: spelled.text }],
        true,
      ),
    );
  }
  const data = { written: q(written), explanation: miss.explanation };
  return reportMessage(rule, ctx, d.ref.range, 'unknownName', data, { fixes });
}
