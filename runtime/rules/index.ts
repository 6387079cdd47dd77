// The rule registry: every diagnostic code of DESIGN.md, one file each.
import { syntaxError } from './syntax-error';
import { importError } from './import-error';
import { unknownImport } from './unknown-import';
import { unknownHookPoint } from './unknown-hook-point';
import { missingParentheses } from './missing-parentheses';
import { duplicateModifyHook } from './duplicate-modify-hook';
import { syncHandler } from './sync-handler';
import { wrongArity } from './wrong-arity';
import { payloadAnnotation } from './payload-annotation';
import { returnAnnotation } from './return-annotation';
import { unsupportedControlSignal } from './unsupported-control-signal';
import { invalidTimeout } from './invalid-timeout';
import { notWired } from './not-wired';
import { readonlyFieldWrite } from './readonly-field-write';
import { modelSettingsKey } from './model-settings-key';
import { observeMutation } from './observe-mutation';
import { missingReturn } from './missing-return';
import { blockingCall } from './blocking-call';
import { toolResultValueIsText } from './tool-result-value-is-text';
import { cayuSyncMethod } from './cayu-sync-method';
import { cayuSignature } from './cayu-signature';
import { cayuReturnAnnotation } from './cayu-return-annotation';
import { cayuDecisionFields } from './cayu-decision-fields';
import { cayuUnknownPhase } from './cayu-unknown-phase';
import { cayuArgumentsMutation } from './cayu-arguments-mutation';
import { cayuPhaseReturn } from './cayu-phase-return';
import { cayuHookName } from './cayu-hook-name';
import { cayuCustomEventType } from './cayu-custom-event-type';
import { unknownAttribute } from './unknown-attribute';
import { modelConstructReturn } from './model-construct-return';
import { unusedSuppression } from './unused-suppression';
import { undefinedName } from './undefined-name';
import type { Rule } from './rule';

export const RULES: readonly Rule[] = [
  syntaxError,
  importError,
  undefinedName,
  unknownImport,
  unknownHookPoint,
  missingParentheses,
  duplicateModifyHook,
  syncHandler,
  wrongArity,
  payloadAnnotation,
  returnAnnotation,
  unsupportedControlSignal,
  invalidTimeout,
  notWired,
  readonlyFieldWrite,
  modelSettingsKey,
  observeMutation,
  missingReturn,
  blockingCall,
  toolResultValueIsText,
  modelConstructReturn,
  unknownAttribute,
  cayuSyncMethod,
  cayuSignature,
  cayuReturnAnnotation,
  cayuDecisionFields,
  cayuUnknownPhase,
  cayuArgumentsMutation,
  cayuPhaseReturn,
  cayuHookName,
  cayuCustomEventType,
  unusedSuppression,
];

export type { Rule, RuleContext } from './rule';
/** Rules a feature runs on its own (cross-file duplicates, syntax errors of unparsed files). */
export { duplicateModifyHook, syntaxError };
/** For features that write a Mantle name into the user's code (completions, quick fixes). */
export { spellMantleName } from './util/mantle-import-fix';
