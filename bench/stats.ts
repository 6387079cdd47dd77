// Small statistics helpers for benchmark output.
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

export function ms(value: number): string {
  return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
}

/** A row: name, value, and the target with its verdict when `pass` is given. */
export function line(name: string, value: string, target?: string, pass?: boolean): string {
  const verdict = pass === undefined ? '' : pass ? '  pass' : '  FAIL';
  return `${name.padEnd(58)} ${value.padStart(22)}${target ? `   (target ${target})${verdict}` : ''}`;
}
