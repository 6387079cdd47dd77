// What the extension client and the language server share: the settings schema (section
// `hooksmith`) and the custom messages. No `vscode` import: both sides bundle this file.
import { z } from 'zod';
import type { Range } from '../python/model';
import { modelConfig, RECORD_MODES } from '../models/model-config';

const severity = z.enum(['error', 'warning', 'information', 'hint']);

/** Settings under `hooksmith.*`, pulled per document with `workspace/configuration`. */
export const settingsSchema = z.object({
  /** Rule code → enabled; a code missing here keeps the rule on. */
  rules: z.record(z.string(), z.boolean()).default({}),
  /** Rule code → the severity to report instead of the rule's own. */
  severity: z.record(z.string(), severity).default({}),
  /** Extra folders to treat as agent roots (absolute, or relative to the first workspace folder). */
  extraAgentRoots: z.array(z.string()).default([]),
  /** The Python interpreter that confirms syntax (the one the Python extension selected); empty: `python3`. */
  pythonPath: z.string().default(''),
  /**
   * At most this many diagnostics of one code per file reach the editor, plus one saying how many
   * more there are (server/publish-cap.ts); 0: no cap. The CLI has none.
   */
  maxDiagnosticsPerCode: z.number().int().min(0).default(100),
  /** The Python host's memory limit in MiB when it runs hooks (0: none). */
  hostMemoryLimitMb: z.number().int().min(0).default(4096),
  /**
   * `wiredPoints`: the Mantle points the engine invokes, overriding the installed rasa-pro's;
   * `apiLine`: the Mantle API line (runtime/catalogue/api-lines.ts), overriding the installed one's;
   * `engine`: who plays Mantle hook calls (runtime/engine/mantle-engine.ts).
   */
  mantle: z
    .object({
      wiredPoints: z.array(z.string()).nullable().optional(),
      apiLine: z.string().nullable().optional(),
      engine: z.enum(['auto', 'real', 'emulation']).default('auto'),
    })
    .default({ engine: 'auto' }),
  /**
   * `safetyStopSeconds`: Hooksmith's own stop for a Cayu hook that never returns (the runtime has
   * no timeout); `apiLine`: the Cayu API line (runtime/catalogue/cayu-lines.ts), overriding the
   * installed cayu's layout; `engine`: who plays Cayu phases (runtime/engine/engine-mode.ts).
   */
  cayu: z
    .object({
      safetyStopSeconds: z.number().int().min(1).max(86_400).default(120),
      apiLine: z.string().nullable().optional(),
      engine: z.enum(['auto', 'real', 'emulation']).default('auto'),
    })
    .default({ safetyStopSeconds: 120, engine: 'auto' }),
  /** A model for every scenario that names none, in runs from the editor (the CLI's `--model`); null: none. */
  model: modelConfig.nullable().default(null),
  /** `--record` of runs from the editor; null: the CLI's default (runtime/models defaultRecordMode). */
  modelRecord: z.enum(RECORD_MODES).nullable().default(null),
  /** `repeat`: the Testing view's Run N times runs each case this often; null: it asks. */
  testing: z
    .object({ repeat: z.number().int().min(2).max(100).nullable().default(null) })
    .default({ repeat: null }),
});

export type HooksmithSettings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: HooksmithSettings = settingsSchema.parse({});

/** The configuration section the server asks for. */
export const SETTINGS_SECTION = 'hooksmith';

/** Source of every diagnostic the server publishes. */
export const DIAGNOSTIC_SOURCE = 'hooksmith';

export { FIX_ALL_KIND } from './names';

/** Command that opens the rule reference shipped in the extension at `args[0]`, a rule code (client side). */
export const SHOW_DOCS_COMMAND = 'hooksmith.showRuleDocs';

/**
 * A command URI that opens the rule's page shipped in the extension inside VS Code (no "open
 * external website?" dialog): hover links, and what the client makes of a diagnostic's
 * codeDescription (the page on the web, ruleDocsUrl). The fragment names the rule.
 */
export function ruleDocsCommandUri(code: string): string {
  return `command:${SHOW_DOCS_COMMAND}?${encodeURIComponent(JSON.stringify([code]))}#${code}`;
}

/**
 * `hooksmith/hooks` — sent by the client (hooks explorer, CodeLens) to list every hook the
 * server knows, grouped by agent. Params: {} (or `{ uri }` to restrict to one file's agent).
 */
export const HOOKS_REQUEST = 'hooksmith/hooks';

/**
 * `hooksmith/hooksChanged` — sent by the server (params `{}`, debounced; only to a client that asks with the
 * experimental `hooksmith.hooksChanged` capability) when the set of hooks
 * it knows changed (a hook added, removed, renamed, moved or re-pointed), so the client
 * re-asks `hooksmith/hooks` for its explorer and CodeLens.
 */
export const HOOKS_CHANGED_NOTIFICATION = 'hooksmith/hooksChanged';

export interface HooksParams {
  /** Only the agent this file belongs to. */
  uri?: string;
}

export interface HookEntry {
  /** Absolute path of the file. */
  file: string;
  /** file:// URI of the file. */
  uri: string;
  /** The handler's name (function name, or method name for Cayu). */
  range: Range;
  engine: 'mantle' | 'cayu';
  /** Mantle point id ("tool_call") or Cayu phase id ("before_tool_call"). */
  point: string;
  /** The point as the selected Mantle API line names it, when not its id ("outgoing_message"): for display. */
  pointName?: string;
  /** Mantle lane; Cayu hooks report "observe" for after_session_* and "modify" for tool phases. */
  lane: 'observe' | 'modify';
  /** Effective timeout (literal timeout_ms or the lane default); undefined for Cayu. */
  timeoutMs?: number;
  /** The engine invokes this point today. */
  wired: boolean;
  /** Mantle: on whose word (not) wired, "rasa-pro 3.21" (runtime/catalogue/wiring.ts). */
  wiredBy?: string;
  /** Another modify hook of the same agent registers the same point. */
  duplicate: boolean;
  /** "fn" for Mantle, "Class.method" for Cayu. */
  handler: string;
}

export interface AgentHooks {
  /** Absolute path of the agent root (or of the folder holding loose Cayu files). */
  root: string;
  hooks: HookEntry[];
}

export interface HooksResult {
  agents: AgentHooks[];
  /** The Mantle points the engine does not invoke, on the not-wired rule's word (installed engine, setting). */
  unwiredPoints?: { points: string[]; by: string };
}

/**
 * The experimental client capability Hooksmith's VS Code client sends (`capabilities.experimental.hooksmith`):
 * what it understands beyond LSP. Other clients send none and get plain LSP (server/client-profile.ts).
 */
export const HOOKSMITH_CLIENT_CAPABILITY = 'hooksmith';

export interface HooksmithClientCapability {
  /** Runs `command:` links and VS Code commands (`editor.action.codeAction`). */
  vscode?: boolean;
  /** Wants `hooksmith/hooksChanged` notifications. */
  hooksChanged?: boolean;
}

export { OPEN_RULE_PAGE_COMMAND } from './names';
