// The models layer: real models called through the Chat Completions API, their exchanges
// recorded to and replayed from cassettes. Imports nothing from the engine.
export {
  modelConfig,
  defaultRecordMode,
  RECORD_MODES,
  type ModelConfig,
  type RecordMode,
} from './model-config';
export { chatRequest, engineAnswer, type ChatRequest, type OfferedTool } from './chat-wire';
export { type ModelFault } from './chat-provider';
export {
  cassetteFile,
  CassetteError,
  checkCassettePath,
  type CassetteWrite,
  type ModelRole,
} from './cassette';
export { ModelPlayer, CassetteMismatch, replayedFault, type Exchange } from './model-player';
export { RE_RECORD, type Audience } from './advice';
