export async function runFuzzCommand(_args: string[]): Promise<number> {
  return 2;
}
