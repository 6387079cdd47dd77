// The players: who plays a scenario. Each lives in its own folder of runtime/engine/ (emulation/,
// cayu-real/, mantle-real/, and any installed engine's player to come) and shows one face,
// its index.ts; players.ts is the one place that chooses among them. Every player returns the
// one result shape, SimulationResult, whose `playedBy` names who played where it matters.
import type { WiringSource } from '../catalogue/wiring';
import type { AgentHooks } from './agent-hooks';
import type { SimulationResult } from './api';
import type { EngineMode } from './engine-mode';
import type { HostPort } from './host-port';
import type { SimModels } from './model-step';
import type { Scenario } from './scenario-schema';

/** One scenario to play, with what any player may need: the warm host, the agent's hooks. */
export interface PlayRequest {
  host: HostPort;
  hooks: AgentHooks;
  scenario: Scenario;
  /** The scenario's file (or the label of a scenario object): results name it. */
  source: string;
  /** Which Mantle points the installed engine invokes (the not-wired rule), asked only by who reads it. */
  wiring: () => Promise<WiringSource | undefined>;
  /** Real models play the agent (and the user): only the emulation's loop has a place for them. */
  models?: SimModels;
  /** Hooksmith's safety stop for a hook that never returns (ms). */
  safetyStopMs: number;
  /**
   * Hooksmith's own turn loop (the emulation's), given by players.ts: a player whose engine
   * cannot drive a whole turn (Mantle: a turn needs a trained model and a license) plays each
   * hook call for real inside it.
   */
  turn: (req: PlayRequest) => Promise<SimulationResult>;
  /** Who plays Cayu phases (engine-mode.ts), as the run's options say; default auto. */
  cayuEngine?: EngineMode;
  /** Who plays Mantle hook calls (mantle-engine.ts), as the run's options say; default auto. */
  mantleEngine?: EngineMode;
}

/** The installed engine turned out unable to drive a scenario (another layout, a stub): why. */
export interface Unavailable {
  unavailable: string;
}

export interface Player {
  /** The player's folder in runtime/engine/ (the layering test holds each folder to its face). */
  readonly id: string;
  play(req: PlayRequest): Promise<SimulationResult | Unavailable>;
}

/** The engines an installed-engine player can stand for. */
export type EngineName = 'cayu' | 'mantle';

/** What a player chose: it plays, or the emulation plays and says why (`playedBy`). */
export type PlayerChoice = { real: true } | { real: false; playedBy?: string };

/** A player that drives an installed engine; the emulation plays whatever it does not take. */
export interface RealPlayer extends Player {
  readonly engine: EngineName;
  /** The setting that forces this engine's player (auto, real, emulation), as the request carries it. */
  mode(req: PlayRequest): EngineMode;
  /** The scenario has hooks of this player's engine (else it has no say in the choice). */
  concerns(hooks: AgentHooks): boolean;
  /**
   * Whether it plays this scenario, or why the emulation does; throws RunInputError when the
   * mode demands the real engine and it cannot play. `installed`: the host's interpreter imports the engine.
   */
  choose(req: PlayRequest, installed: () => Promise<boolean>): Promise<PlayerChoice>;
  /** The label of a result the emulation played instead of this engine, with why. */
  emulationPlayedBy(why: string): string;
  /**
   * It plays inside Hooksmith's turn loop (PlayRequest.turn), each hook call its engine's: real
   * models of the agent or the user have a place there (an engine that drives its own turn has none).
   */
  readonly turnIsHooksmiths?: boolean;
}
