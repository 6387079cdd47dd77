// Explaining a name that `rasa.mantle.hooks` does not have: a modify lane that does not exist,
// or the nearest real name (did you mean …?).
import {
  HOOK_DECORATORS,
  MANTLE_EXPORTS,
  MANTLE_LINES,
  MANTLE_POINTS,
  activeMantleLine,
  decoratorName,
  renamedOnActiveLine,
} from '../../catalogue';
import { nearest } from './edit-distance';
import { q } from './diagnostic';

export interface NearMiss {
  /** Sentence explaining what is wrong, without the leading name. */
  explanation: string;
  /** A real name to replace it with. */
  suggestion?: string;
  /**
   * When no single name is close: the decorators of the same lane and subject (`on_turn_*`), offered as
   * alternatives.
   */
  family: string[];
}

/** Decorators sharing the lane and first word: `on_turn_begin` → on_turn_started, on_turn_finished. */
function familyOf(name: string): string[] {
  const m = /^(on|modify)_([a-z]+)_/.exec(name);
  if (!m) return [];
  return HOOK_DECORATORS.map((d) => d.name).filter((n) => n.startsWith(`${m[1]}_${m[2]}_`));
}

/** `modify_turn_started`: a point without a modify lane. */
function modifyOfObserveOnly(name: string): string | undefined {
  const point = MANTLE_POINTS.find((p) => !p.hasModifyLane && decoratorName(p.id, 'modify') === name);
  return point ? decoratorName(point.id, 'observe') : undefined;
}

/**
 * `modify_outgoing_message` on the rasa-pro 3.21 line: another line's spelling of a name this line
 * exports under its catalogue spelling (3.21 ships `modify_outgoing_text`, rasa/mantle/hooks/__init__.py).
 */
function spelledOnAnotherLine(name: string): { title: string; ours: string } | undefined {
  const active = activeMantleLine();
  for (const line of MANTLE_LINES) {
    if (line === active) continue;
    for (const [from, to] of Object.entries(line.payloads))
      if (name === to && !(from in active.payloads)) return { title: line.title, ours: from };
    for (const [from, to] of Object.entries(line.points)) {
      if (from in active.points) continue;
      for (const lane of ['on', 'modify'])
        if (name === `${lane}_${to}`) return { title: line.title, ours: `${lane}_${from}` };
    }
  }
  return undefined;
}

/**
 * Answers by name: a module with a typo repeated on every hook asks the same question hundreds
 * of times, and each answer measures the distance to every export. Bounded (names come from
 * the user's code). Shared answers: callers must not modify them.
 */
const answers = new Map<string, NearMiss>();
const MAX_ANSWERS = 1000;

export function explainMissingName(name: string, decoratorsOnly: boolean): NearMiss {
  const key = `${activeMantleLine().id}:${decoratorsOnly ? 'd' : 'e'}:${name}`;
  let miss = answers.get(key);
  if (!miss) {
    if (answers.size >= MAX_ANSWERS) answers.clear();
    miss = explain(name, decoratorsOnly);
    answers.set(key, miss);
  }
  return miss;
}

function explain(name: string, decoratorsOnly: boolean): NearMiss {
  const renamed = renamedOnActiveLine(name);
  if (renamed) {
    return {
      explanation: `was renamed to ${q(renamed)} (${activeMantleLine().title}): ${q('rasa.mantle.hooks')} no longer exports it.`,
      suggestion: renamed,
      family: [],
    };
  }
  const other = spelledOnAnotherLine(name);
  if (other) {
    return {
      explanation: `is the name on ${other.title}; ${activeMantleLine().title} does not export it and spells it ${q(other.ours)}.`,
      suggestion: other.ours,
      family: [],
    };
  }
  const observe = modifyOfObserveOnly(name);
  if (observe) {
    return {
      explanation: `does not exist: the ${name.replace(/^modify_/, '').replace(/_/g, ' ')} point has no modify lane (it is observe-only). Use ${q(observe)} to observe it.`,
      suggestion: observe,
      family: [],
    };
  }
  const candidates = decoratorsOnly ? HOOK_DECORATORS.map((d) => d.name) : MANTLE_EXPORTS;
  const suggestion = nearest(name, candidates);
  const what = decoratorsOnly
    ? `is not a hook decorator of ${q('rasa.mantle.hooks')}`
    : `is not exported by ${q('rasa.mantle.hooks')}`;
  const family = suggestion || !decoratorsOnly ? [] : familyOf(name);
  const alternatives = family.length ? ` Similar decorators: ${family.map(q).join(', ')}.` : '';
  return {
    explanation: suggestion ? `${what}; did you mean ${q(suggestion)}?` : `${what}.${alternatives}`,
    suggestion,
    family,
  };
}
