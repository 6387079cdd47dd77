// Explaining a name that `rasa.mantle.hooks` does not have: a modify lane that does not exist,
// or the nearest real name (did you mean …?).
import { HOOK_DECORATORS, MANTLE_EXPORTS, MANTLE_POINTS, decoratorName } from '../../catalogue';
import { nearest } from './edit-distance';
import { q } from './diagnostic';

export interface NearMiss {
  /** Sentence explaining what is wrong, without the leading name. */
  explanation: string;
  /** A real name to replace it with. */
  suggestion?: string;
}

/** `modify_turn_started`: a point without a modify lane. */
function modifyOfObserveOnly(name: string): string | undefined {
  const point = MANTLE_POINTS.find((p) => !p.hasModifyLane && decoratorName(p.id, 'modify') === name);
  return point ? decoratorName(point.id, 'observe') : undefined;
}

export function explainMissingName(name: string, decoratorsOnly: boolean): NearMiss {
  const observe = modifyOfObserveOnly(name);
  if (observe) {
    return {
      explanation: `does not exist: the ${name.replace(/^modify_/, '').replace(/_/g, ' ')} point has no modify lane (it is observe-only). Use ${q(observe)} to observe it.`,
      suggestion: observe,
    };
  }
  const candidates = decoratorsOnly ? HOOK_DECORATORS.map((d) => d.name) : MANTLE_EXPORTS;
  const suggestion = nearest(name, candidates);
  const what = decoratorsOnly ? `is not a hook decorator of ${q('rasa.mantle.hooks')}` : `is not exported by ${q('rasa.mantle.hooks')}`;
  return {
    explanation: suggestion ? `${what}; did you mean ${q(suggestion)}?` : `${what}.`,
    suggestion,
  };
}
