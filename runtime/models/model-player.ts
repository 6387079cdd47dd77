// Plays the model parts of one simulation against a cassette: replays what was recorded, calls
// the model for what is missing (or for everything), and never calls it under `none`. A request
// that differs from the recorded one is a CassetteMismatch naming the first differing field.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { callChat, redact, type ModelFault, type Sleep } from './chat-provider';
import type { ChatAnswer, ChatRequest } from './chat-wire';
import {
  describeDifference,
  firstDifference,
  formerCassetteName,
  readCassette,
  cassetteText,
  type CassetteWrite,
  type CassetteEntry,
  type ModelRole,
} from './cassette';
import type { ModelConfig, RecordMode } from './model-config';
import { recordAdvice, RE_RECORD, reRecordAdvice, type Audience } from './advice';
import { parseJson, stringifyJson } from '../json/lossless-json';

/** What a fault replayed from a cassette says: it was recorded, and how to call the model again. */
export const replayedFault = (cassette: string, audience: Audience = 'cli') =>
  `replayed from ${cassette}, where it was recorded: re-record it with ${audience === 'editor' ? RE_RECORD : '--record all'}`;

/** The cassette cannot answer this request under the mode (missing, or recorded otherwise). */
export class CassetteMismatch extends Error {
  override name = 'CassetteMismatch';
}

export interface Exchange {
  role: ModelRole;
  turn: number;
  answer?: ChatAnswer;
  fault?: ModelFault;
  latencyMs: number;
  /** `replayed` from the cassette, or `called`: a fresh call to the model. */
  source: 'replayed' | 'called';
  notes: string[];
}

export interface PlayerOptions {
  mode: RecordMode;
  /** The cassette file; none (an inline scenario): exchanges are kept in memory only. */
  file?: string;
  env?: NodeJS.ProcessEnv;
  sleep?: Sleep;
  /**
   * A request that differs from its recorded one stops with the difference, even where recording
   * is on (the editor: only its Re-record action calls the model over a recorded exchange).
   */
  keepRecorded?: boolean;
  /** Whose words the advice in a CassetteMismatch uses (default: the CLI's flags). */
  audience?: Audience;
}

export class ModelPlayer {
  private readonly recorded: CassetteEntry[];
  private readonly played: CassetteEntry[] = [];
  private changed = false;
  readonly exchanges: Exchange[] = [];

  constructor(readonly options: PlayerOptions) {
    this.recorded = options.file ? readCassette(options.file) : [];
  }

  get mode(): RecordMode {
    return this.options.mode;
  }

  private where(): string {
    const f = this.options.file;
    return f ? path.basename(f) : 'the cassette';
  }

  async exchange(
    role: ModelRole,
    turn: number,
    config: ModelConfig,
    request: ChatRequest,
  ): Promise<Exchange> {
    const i = this.played.length;
    const old = this.recorded[i];
    const diff = old && (old.role !== role ? undefined : firstDifference(old.request, request));
    const matches = old !== undefined && old.role === role && !diff;
    const replayOnly =
      this.mode === 'none' ||
      (this.mode === 'missing' && (matches || (old !== undefined && !!this.options.keepRecorded)));
    if (replayOnly) return this.replay(role, turn, config, old, diff);
    const env = this.options.env ?? process.env;
    const key = config.api_key_env ? env[config.api_key_env] : undefined;
    const r = await callChat(config, request, key, this.options.sleep);
    const entry: CassetteEntry = {
      role,
      turn,
      request,
      ...(r.answer ? { response: r.answer } : {}),
      ...(r.fault ? { fault: r.fault } : {}),
      latency_ms: r.latencyMs,
    };
    // A key the server echoed back stays out of the cassette too.
    const safe = key ? (parseJson(redact(stringifyJson(entry)!, key)) as CassetteEntry) : entry;
    this.played.push(safe);
    this.changed = true;
    return this.keep({
      role,
      turn,
      ...(safe.response ? { answer: safe.response } : {}),
      ...(safe.fault ? { fault: safe.fault } : {}),
      latencyMs: r.latencyMs,
      source: 'called',
      notes: r.notes,
    });
  }

  /** The recorded exchange #i, or the CassetteMismatch saying why the cassette cannot answer. */
  private replay(
    role: ModelRole,
    turn: number,
    config: ModelConfig,
    old: CassetteEntry | undefined,
    diff: ReturnType<typeof firstDifference>,
  ): Exchange {
    const i = this.played.length;
    const env = this.options.env ?? process.env;
    const audience = this.options.audience ?? 'cli';
    if (!old)
      throw new CassetteMismatch(
        `${this.where()} has no recorded exchange #${i + 1} (the ${role}'s model request of turn ${turn}); ${recordAdvice(config, env, audience)}${this.formerHint(i)}`,
      );
    if (old.role !== role || diff)
      throw new CassetteMismatch(
        old.role !== role
          ? `exchange #${i + 1} in ${this.where()} was recorded for the ${old.role}, now the ${role} asks: the conversation went otherwise; ${reRecordAdvice(config, env, audience)}`
          : `the ${role}'s model request #${i + 1} differs from the one recorded in ${this.where()}: ${describeDifference(diff!)} (a hook or the scenario changed the prompt; ${reRecordAdvice(config, env, audience)})`,
      );
    this.played.push(old);
    return this.keep({
      role,
      turn,
      ...(old.response ? { answer: old.response } : {}),
      ...(old.fault ? { fault: old.fault } : {}),
      latencyMs: old.latency_ms,
      source: 'replayed',
      // A fault recorded once (a 429, a timeout) replays on every run until re-recorded.
      notes: old.fault ? [`${replayedFault(this.where(), audience)}: ${old.fault.message}`] : [],
    });
  }

  /** Where the cassette every scenario suffix once shared lies beside this one (#1 missing only). */
  private formerHint(i: number): string {
    const file = this.options.file;
    const former = file && i === 0 ? formerCassetteName(file) : undefined;
    if (!former || !fs.existsSync(path.join(path.dirname(file!), former))) return '';
    return `; ${former} beside it may be this scenario's, recorded before each scenario file had a cassette of its own: if so, rename it to ${path.basename(file!)}`;
  }

  private keep(e: Exchange): Exchange {
    this.exchanges.push(e);
    return e;
  }

  /**
   * The cassette to write when a call was made: the exchanges of this run (a conversation that went
   * otherwise leaves the old ones behind). Not written here: the command that owns the run writes
   * it, atomically (testing/save-cassette.ts).
   */
  recording(): CassetteWrite | undefined {
    if (!this.changed || !this.options.file) return undefined;
    return { file: this.options.file, text: cassetteText(this.played) };
  }
}
