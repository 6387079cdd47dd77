// The face of Hooksmith's emulation: it plays any scenario (Mantle points, Cayu phases, models),
// and every scenario no installed engine's player takes (players.ts).
import type { Player, PlayRequest } from '../player';
import { simulateTurn } from './simulator';

export const emulationPlayer = {
  id: 'emulation',
  play: async ({ host, hooks, scenario, source, wiring, models }: PlayRequest) =>
    simulateTurn(host, hooks, scenario, source, await wiring(), models),
} satisfies Player;

export { QUIET_RETRY_EFFECT } from './simulator';
