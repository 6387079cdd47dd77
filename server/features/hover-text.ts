// Markdown for hovers, all of it from the catalogue (runtime/catalogue): decorators,
// payload types and fields, Cayu phases, contexts and decisions.
import { notInvokedBy, pointWired, type WiringSource } from '../../runtime/catalogue/wiring';
import {
  CAYU_TOOL_RESULT_FIELDS,
  DEFAULT_TIMEOUT_MS,
  allFields,
  activeCayuLine,
  CAYU_MODULES,
  cayuImportModuleFor,
  findCayuContext,
  findCayuDecision,
  type CayuDecision,
  type CayuPhase,
  type HookDecorator,
  type PayloadField,
  type PayloadType,
} from '../../runtime/catalogue';
import { ruleDocsCommandUri } from '../../runtime/lsp/shared';
import { RULES } from '../../runtime/rules';

/** `wiring`: the installed engine and the setting, as the not-wired rule is told (runtime/catalogue/wiring.ts). */
export function decoratorHover(
  d: HookDecorator,
  timeoutMs: number | undefined,
  wiring?: WiringSource,
): string {
  const p = d.point;
  const lines = [
    `**@${d.name}** — ${p.title}, ${d.lane} lane`,
    '',
    p.when,
    '',
    `| | |`,
    `|---|---|`,
    `| Point | \`${p.id}\` |`,
    `| Lane | ${d.lane} |`,
    `| Payload | \`${p.payloadType}\` |`,
    `| Signals | ${d.lane === 'modify' && p.signals.length ? p.signals.map((s) => `\`${s}\``).join(', ') : 'none'} |`,
  ];
  // failEffect already starts with "fail-open:" / "fail-closed:".
  if (d.lane === 'modify' && p.failPolicy)
    lines.push(`| Fail policy | ${p.failEffect ?? `fail-${p.failPolicy}`} |`);
  else lines.push(`| Fail policy | observer: a crash or timeout is logged and ignored |`);
  const dflt = DEFAULT_TIMEOUT_MS[d.lane];
  lines.push(
    `| Timeout | ${timeoutMs !== undefined && timeoutMs !== dflt ? `${timeoutMs} ms (\`timeout_ms\`; default ${dflt} ms)` : `${dflt} ms (default)`} |`,
  );
  const w = pointWired(p, wiring);
  lines.push(
    `| Wired | ${w.wired ? `yes: invoked by ${w.by}` : `**no**: ${notInvokedBy(w.by)} ([not-wired](${ruleDocsCommandUri('not-wired')}))`} |`,
  );
  if (d.lane === 'modify') {
    for (const [signal, effect] of Object.entries(p.signalEffects))
      lines.push('', `\`${signal}\`: ${effect}`);
  }
  return lines.join('\n');
}

/** The short text of the rules behind the diagnostics under the cursor, each linking to its reference. */
export function ruleHover(codes: readonly string[]): string | undefined {
  const parts = [...new Set(codes)].flatMap((code) => {
    const rule = RULES.find((r) => r.code === code);
    return rule
      ? [`**${rule.title}** · [${code}](${ruleDocsCommandUri(code)}) — ${firstSentence(rule.docs.why)}`]
      : [];
  });
  return parts.length ? parts.join('\n\n') : undefined;
}

function firstSentence(text: string): string {
  const m = /^(.*?[.!?])(\s|$)/.exec(text);
  return m ? m[1]! : text;
}

function fieldRow(f: PayloadField): string {
  return `| \`${f.name}\` | \`${f.pythonType.replace(/\|/g, '\\|')}\` | ${f.mutability} | ${f.doc.replace(/\|/g, '\\|')} |`;
}

export function payloadHover(t: PayloadType, highlight?: string): string {
  const lines: string[] = [];
  const field = highlight ? allFields(t).find((f) => f.name === highlight) : undefined;
  if (field) {
    lines.push(
      `**${t.name}.${field.name}**: \`${field.pythonType}\` — ${field.mutability}`,
      '',
      field.doc,
      '',
      '---',
      '',
    );
  }
  lines.push(`**${t.name}**`, '', t.doc, '', '| Field | Type | Mutability | |', '|---|---|---|---|');
  for (const f of allFields(t)) lines.push(fieldRow(f));
  lines.push(
    '',
    'Change mutable fields with `payload.model_copy(update={...})`; identity and read-only fields are engine-owned.',
  );
  return lines.join('\n');
}

export function cayuPhaseHover(phase: CayuPhase): string {
  const lines = [
    `**${phase.id}** — Cayu runtime hook phase`,
    '',
    phase.doc,
    '',
    `Context: \`${phase.context}\``,
  ];
  lines.push(`Returns: ${phase.decision ? `\`${phase.decision} | None\`` : '`None`'}`);
  const decision = phase.decision ? findCayuDecision(phase.decision) : undefined;
  if (decision) lines.push('', actionTable(decision));
  return lines.join('\n');
}

function actionTable(d: CayuDecision): string {
  const rows = ['| action | requires | |', '|---|---|---|'];
  for (const a of d.actions)
    rows.push(`| \`"${a.action}"\` | ${a.companion ? `\`${a.companion}\`` : '—'} | ${a.doc} |`);
  return rows.join('\n');
}

/** Where the name is imported from on the selected Cayu line (none chosen: the documented path). */
function cayuImportNote(name: string): string {
  const line = activeCayuLine();
  const module = cayuImportModuleFor(name, CAYU_MODULES[0]!);
  return `\`from ${module} import ${name}\`${line ? ` (${line.title})` : ''}`;
}

export function cayuTypeHover(name: string): string | undefined {
  const text = cayuTypeText(name);
  return text && `${text}\n\n${cayuImportNote(name)}`;
}

function cayuTypeText(name: string): string | undefined {
  const ctx = findCayuContext(name);
  if (ctx) {
    const rows = Object.entries(ctx.properties).map(
      ([k, v]) => `| \`${k}\` | \`${v.replace(/\|/g, '\\|')}\` |`,
    );
    return [`**${ctx.name}**`, '', ctx.doc, '', '| Property (read-only) | Type |', '|---|---|', ...rows].join(
      '\n',
    );
  }
  const decision = findCayuDecision(name);
  if (decision) {
    const fields = Object.entries(decision.fields).map(
      ([k, v]) => `| \`${k}\` | \`${v.replace(/\|/g, '\\|')}\` |`,
    );
    return [
      `**${decision.name}** — returned by \`${decision.phase}\``,
      '',
      decision.doc,
      '',
      actionTable(decision),
      '',
      '| Companion field | Type |',
      '|---|---|',
      ...fields,
      '',
      'Each companion field is valid only with its own action.',
    ].join('\n');
  }
  if (name === 'ToolResult') {
    const rows = Object.entries(CAYU_TOOL_RESULT_FIELDS).map(([k, v]) => `| \`${k}\` | \`${v}\` |`);
    return ['**ToolResult**', '', '| Field | Type |', '|---|---|', ...rows].join('\n');
  }
  return undefined;
}
