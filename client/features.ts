// Every feature of the extension, in activation order. A feature is a function of the
// context; it registers its commands and views through it, so disposal is automatic.
//
// The run / simulate UI (client/run, client/simulate) registers `hooksmith.runHook`,
// `hooksmith.rerunLastHook` and `hooksmith.simulateTurn` through `ctx.registerCommand(...)`;
// the explorer's "Run Hook" item calls `hooksmith.runHook` with `{ file, handler }`
// (client/explorer/tree-model.ts). A new feature: write `(ctx) => void` and add it below.
import type { HooksmithContext } from './context';
import { serverCommandsFeature } from './commands';
import { ruleDocsFeature } from './docs/rule-docs';
import { explorerFeature } from './explorer/feature';
import { scaffoldFeature } from './scaffold/feature';
import { runFeature } from './run/feature';
import { simulateFeature } from './simulate/feature';
import { testingFeature } from './testing/feature';
import { registerDebugAdapter } from './debug/debug-adapter';
import { walkthroughFeature } from './walkthrough/feature';

export type Feature = (ctx: HooksmithContext) => void | Promise<void>;

export interface FeatureModule {
  name: string;
  activate: Feature;
}

export const FEATURES: readonly FeatureModule[] = [
  { name: 'server-commands', activate: serverCommandsFeature },
  { name: 'rule-docs', activate: ruleDocsFeature },
  { name: 'explorer', activate: explorerFeature },
  { name: 'scaffold', activate: scaffoldFeature },
  { name: 'run', activate: runFeature }, // client/run/feature.ts
  { name: 'simulate', activate: simulateFeature }, // client/simulate/feature.ts
  { name: 'testing', activate: testingFeature }, // client/testing/feature.ts
  { name: 'debug', activate: (ctx) => ctx.push(registerDebugAdapter()) }, // client/debug (#22)
  { name: 'walkthrough', activate: walkthroughFeature }, // client/walkthrough (#23)
];
