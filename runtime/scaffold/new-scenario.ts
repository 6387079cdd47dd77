// "Hooksmith: New Scenario": a scenario file that plays one turn through the hooks a user picked —
// the user's message, the mock LLM's completions (a tool call, then the answer), the mock tool —
// with an `expect:` block that makes it a test (the turn completes, no hook misbehaves, each
// picked hook ran and returned). Also the snippets of scenario files (`scenario`, `turns`).
// Formats: docs/files.md; the schema: runtime/engine/scenario-schema.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A hook the scenario is for (the language server's hooks list gives these). */
export interface ScenarioHook {
  /** "fn" (Mantle) or "Class.method" (Cayu). */
  handler: string;
  /** Mantle point id or Cayu phase id. */
  point: string;
  /** The engine invokes the point today (an unwired one is played with fire_unwired). */
  wired: boolean;
}

/** What a one-turn scenario that completes does not reach, and what would. */
const NOT_REACHED: Record<string, string> = {
  after_session_failed: 'a turn that fails (a completion `- error: …`)',
  after_session_interrupted: 'an interrupted turn (`interrupt: { after_iteration: 1 }`)',
};

const TOOL = 'lookup_order';

/** "guard_orders" → "guard orders"; "ToolGuard.before_tool_call" → "tool guard before tool call". */
export function scenarioName(hooks: readonly ScenarioHook[]): string {
  const first = hooks[0]?.handler ?? 'new scenario';
  return first
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[._]+/g, ' ')
    .trim()
    .toLowerCase();
}

const yamlString = (s: string) => (/^[\w .,'?!-]+$/.test(s) && !/^[-?!]/.test(s) ? s : JSON.stringify(s));

/** The scenario's YAML text. */
export function newScenarioText(hooks: readonly ScenarioHook[], name = scenarioName(hooks)): string {
  const knowledge = hooks.some((h) => h.point.startsWith('knowledge_'));
  const unwired = hooks.filter((h) => !h.wired).map((h) => h.point);
  const reached = hooks.filter((h) => !NOT_REACHED[h.point]);
  const out = [
    `# A scenario for ${hooks.map((h) => `${h.handler} (${h.point})`).join(', ') || 'this agent'}.`,
    '# One turn: the user says something, the mock LLM calls a tool, then answers. Simulate Turn',
    '# plays it; its expect: block makes it a test (the Testing view, hooksmith test). Change the',
    "# messages and tool results to your agent's; every key: docs/files.md in Hooksmith.",
    `name: ${yamlString(name)}`,
    'user: Where is my order o-1?',
  ];
  if (unwired.length)
    out.push(
      `fire_unwired: true # the engine does not invoke ${[...new Set(unwired)].join(', ')}: played anyway`,
    );
  out.push(
    'completions:',
    '  - tool_calls:',
    `      - tool_name: ${TOOL}`,
    '        tool_args: { order_id: o-1 }',
  );
  if (knowledge)
    out.push('      - tool_name: search_knowledge', '        tool_args: { query: delivery times }');
  out.push(
    // Grounded, as an answer from a tool's result reads: a hook that retries an answer citing
    // nothing (the bundled example's require_grounding) lets the scenario pass as written.
    "  - text: 'According to the order system, your order o-1 has shipped.'",
    'tools:',
    `  ${TOOL}:`,
    '    value: { order_id: o-1, status: shipped }',
  );
  if (knowledge)
    out.push(
      'knowledge:',
      '  passages:',
      '    - { text: "Orders ship within two days.", scope: faq, source: shipping.md, score: 0.8 }',
    );
  out.push('expect:', '  status: completed', '  no_crashes: true', '  within_budget: true');
  if (reached.length) out.push('  hook_outcome:');
  for (const h of reached) out.push(`    - { point: ${h.point}, hook: ${h.handler}, outcome: returned }`);
  for (const h of hooks.filter((x) => NOT_REACHED[x.point]))
    out.push(`  # ${h.handler}: ${h.point} fires only in ${NOT_REACHED[h.point]}`);
  return out.join('\n') + '\n';
}

/** The folder of the agent's scenarios: where its `*.scenario.*` files are, else the agent root. */
export function scenarioFolder(agentRoot: string, scenarioFiles: readonly string[]): string {
  const inside = scenarioFiles
    .filter((f) => f.startsWith(agentRoot + path.sep) && !f.includes(`${path.sep}.hooksmith${path.sep}`))
    .map((f) => path.dirname(f))
    .sort((a, b) => a.split(path.sep).length - b.split(path.sep).length || a.localeCompare(b));
  if (inside[0]) return inside[0];
  const scenarios = path.join(agentRoot, 'scenarios');
  return fs.statSync(scenarios, { throwIfNoEntry: false })?.isDirectory() ? scenarios : agentRoot;
}

/** `<name>.scenario.yaml` in `folder`, `-2`, `-3`, … when taken. */
export function freeScenarioPath(folder: string, name: string): string {
  const base = name.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'new';
  for (let i = 1; ; i++) {
    const file = path.join(folder, `${base}${i > 1 ? `-${i}` : ''}.scenario.yaml`);
    if (!fs.existsSync(file)) return file;
  }
}

/** Snippets of a scenario file (VS Code snippet syntax): a one-turn scenario and a conversation. */
export const SCENARIO_SNIPPETS: readonly { prefix: string; description: string; body: string }[] = [
  {
    prefix: 'scenario',
    description: 'Hooksmith scenario: one turn (user message, mock LLM completions, mock tools, expect)',
    body: [
      'name: ${1:a turn}',
      'user: ${2:Where is my order o-1?}',
      'completions:',
      '  - tool_calls:',
      '      - tool_name: ${3:lookup_order}',
      '        tool_args: { ${4:order_id: o-1} }',
      '  - text: ${5:Your order has shipped.}',
      'tools:',
      '  ${3:lookup_order}:',
      '    value: { ${6:status: shipped} }',
      'expect:',
      '  status: completed',
      '  tool_called: { tool_name: ${3:lookup_order} }',
      '  no_crashes: true',
      '$0',
    ].join('\n'),
  },
  {
    prefix: 'turns',
    description: 'Hooksmith scenario: a conversation of turns, each with its own expect',
    body: [
      'name: ${1:a conversation}',
      'turns:',
      '  - user: ${2:hi}',
      '    completions: [{ text: ${3:Hello! How can I help?} }]',
      '    expect: { transcript: { contains: ${4:Hello} } }',
      '  - user: ${5:bye}',
      '    completions: [{ text: ${6:Goodbye!} }]',
      '    expect: { transcript: { contains: ${7:Goodbye} } }',
      'expect:',
      '  status: completed',
      '$0',
    ].join('\n'),
  },
];
