// model_settings allow-list (spec: modify_model_request). Anything else is ignored by the engine.
export type SettingValueType = 'number' | 'integer' | 'string-or-string-list';

export interface ModelSetting {
  key: string;
  valueType: SettingValueType;
  doc: string;
}

export const MODEL_SETTINGS: readonly ModelSetting[] = [
  { key: 'temperature', valueType: 'number', doc: 'Sampling temperature (a number).' },
  { key: 'top_p', valueType: 'number', doc: 'Nucleus sampling mass (a number).' },
  { key: 'max_tokens', valueType: 'integer', doc: 'Maximum completion tokens (an integer).' },
  { key: 'presence_penalty', valueType: 'number', doc: 'Presence penalty (a number).' },
  { key: 'frequency_penalty', valueType: 'number', doc: 'Frequency penalty (a number).' },
  {
    key: 'stop',
    valueType: 'string-or-string-list',
    doc: 'Stop sequence(s): a string or a list of strings.',
  },
  { key: 'seed', valueType: 'integer', doc: 'Sampling seed (an integer).' },
];

const byKey = new Map(MODEL_SETTINGS.map((s) => [s.key, s]));

export function findModelSetting(key: string): ModelSetting | undefined {
  return byKey.get(key);
}

/** Whether a JSON value is of the type the engine accepts for this setting. */
export function acceptsValue(setting: ModelSetting, value: unknown): boolean {
  switch (setting.valueType) {
    case 'number':
      return (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint';
    case 'integer':
      // Beyond 2^53 an integer arrives as a bigint: Python's int takes any size.
      return (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint';
    case 'string-or-string-list':
      return typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
  }
}
