// The run panel's payload bar: which saved payload of the point the run used (a list to re-run
// with another), a notice when that payload is still the catalogue's sample (a run against it
// says little about the user's hook), "Edit payload", and the payload's top-level scalar fields
// as inputs (a change posts {type:'editField'}; the extension writes the file and re-runs).
import { isDeepStrictEqual } from 'node:util';
import { withoutSchemaKey } from '../engine/payload-input';
import { samplePayload } from '../engine/samples';
import { escapeHtml } from './html-kit';
import { parseJson, stringifyJson } from '../json/lossless-json';

/** A bigint is an integer beyond 2^53 (runtime/json/lossless-json.ts): a number field too. */
export type ScalarValue = string | number | bigint | boolean;

export interface PayloadField {
  key: string;
  value: ScalarValue;
}

export interface PayloadBar {
  /** The payload file the run used (absolute) and how the panel names it. */
  file: string;
  shown: string;
  /** The point's saved payloads (absolute path and shown name), the used one among them. */
  saved: { file: string; shown: string }[];
  /** Set when the file holds the catalogue's sample for the point, unedited. */
  catalogueSample?: { point: string; justWritten: boolean };
  fields: PayloadField[];
  /** The file is a test case (`expect`): a field edit goes to a new sample, the test stays. */
  testCase?: boolean;
}

/**
 * The top-level string, number and boolean fields of a payload object, in file order; the file's
 * own keys (`$schema`, a test case's `hook` and `expect`) are no payload fields.
 */
export function editableFields(payload: unknown): PayloadField[] {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return [];
  return Object.entries(withoutSchemaKey(payload as Record<string, unknown>))
    .filter(
      ([, v]) =>
        typeof v === 'string' ||
        typeof v === 'boolean' ||
        typeof v === 'bigint' ||
        (typeof v === 'number' && isFinite(v)),
    )
    .map(([key, value]) => ({ key, value: value as ScalarValue }));
}

/** Whether `payload` is exactly the catalogue's sample for `point` (the user has not edited it). */
export function isCatalogueSample(point: string, payload: unknown): boolean {
  const sample = samplePayload(point);
  return sample.ok && isDeepStrictEqual(parseJson(stringifyJson(sample.payload)), payload);
}

/**
 * The value an edited input stands for, of the field's current type: a number field takes only a
 * finite number, a boolean only true/false; undefined when the text does not fit.
 */
export function coerceField(current: ScalarValue, value: unknown): ScalarValue | undefined {
  if (typeof current === 'string') return typeof value === 'string' ? value : undefined;
  if (typeof current === 'boolean') return typeof value === 'boolean' ? value : undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  // The input's text read as a JSON number: an integer beyond 2^53 keeps its digits.
  const text = typeof value === 'string' ? value.trim() : '';
  if (!JSON_NUMBER.test(text)) return undefined;
  const n = parseJson(text) as number | bigint;
  return typeof n === 'bigint' || Number.isFinite(n) ? n : undefined;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

export const PAYLOAD_BAR_CSS = `
.sample-notice{padding:8px 12px;border-left:3px solid var(--warn);background:var(--card);border-radius:2px;margin:10px 0}
.payload-bar{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin:8px 0}
.payload-bar select{background:var(--vscode-dropdown-background);color:var(--vscode-dropdown-foreground);border:1px solid var(--vscode-dropdown-border,var(--border));padding:2px 4px}
.fields{display:grid;grid-template-columns:max-content 1fr;gap:4px 10px;align-items:center;margin:6px 0 10px}
.fields input[type=text],.fields input[type=number]{background:var(--vscode-input-background);color:var(--vscode-input-foreground);border:1px solid var(--vscode-input-border,var(--border));padding:2px 4px;font-family:var(--vscode-editor-font-family,monospace);line-height:1.6}
`;
// line-height: an input clips its text to its line box, and the editor font's underscore hangs
// below that font's descent: at 'normal' place_order read "place order" (#31 item 6).

function fieldInput(f: PayloadField): string {
  const id = `field-${escapeHtml(f.key)}`;
  const kind = typeof f.value === 'bigint' ? 'number' : typeof f.value;
  const common = `id="${id}" data-key="${escapeHtml(f.key)}" data-kind="${kind}"`;
  const input =
    typeof f.value === 'boolean'
      ? `<input type="checkbox" ${common}${f.value ? ' checked' : ''}>`
      : `<input type="${kind === 'number' ? 'number' : 'text'}" ${common} value="${escapeHtml(String(f.value))}">`;
  return `<label class="mono" for="${id}">${escapeHtml(f.key)}</label>${input}`;
}

/** The notice that the run used the catalogue's sample as is (empty otherwise): shown under the title. */
export function renderSampleNotice(bar: PayloadBar): string {
  const sample = bar.catalogueSample;
  return sample
    ? `<p class="sample-notice" role="note"><strong>Ran with the catalogue's sample payload</strong> for <code>${escapeHtml(sample.point)}</code> (<code>${escapeHtml(bar.shown)}</code>${sample.justWritten ? ', just written' : ', unedited'}) — edit it to match your hook: the fields below, or Edit payload. A result on this sample says little about your hook.</p>`
    : '';
}

export function renderPayloadBar(bar: PayloadBar): string {
  const sample = bar.catalogueSample;
  const options = bar.saved
    .map(
      (s) =>
        `<option value="${escapeHtml(s.file)}"${s.file === bar.file ? ' selected' : ''}>${escapeHtml(s.shown)}</option>`,
    )
    .join('');
  const picker =
    bar.saved.length > 1
      ? `<label for="payload-pick">Payload</label><select id="payload-pick" title="Re-run with another saved payload of this point">${options}</select>`
      : `<span>Payload <code>${escapeHtml(bar.shown)}</code></span>`;
  const fields = bar.fields.length
    ? `<details${sample ? ' open' : ''}><summary>Payload fields (${bar.testCase ? 'this file is a test case: a change is saved to a new sample, the test stays as it is,' : 'a change is saved to the file'} and re-runs)</summary><div class="fields">${bar.fields.map(fieldInput).join('')}</div></details>`
    : '';
  return `<div class="payload-bar">${picker}<button class="secondary" data-action="editPayload" title="${escapeHtml(bar.file)}">Edit payload</button></div>${fields}`;
}

/** Posts a pick or a field edit (appended to the panel's one script). */
export const PAYLOAD_BAR_SCRIPT = `
document.addEventListener('change', (e) => {
  const t = e.target;
  if (!(t instanceof HTMLElement) || !vscodeApi) return;
  if (t.id === 'payload-pick') { vscodeApi.postMessage({ type: 'pickPayload', file: t.value }); return; }
  if (!t.dataset || !t.dataset.key) return;
  const value = t.dataset.kind === 'boolean' ? t.checked : t.value;
  vscodeApi.postMessage({ type: 'editField', key: t.dataset.key, value });
});
`;
