// `hooksmith payload POINT` — prints a valid sample payload for a point, as the engine sends it.
import { samplePayload } from '../engine/samples';

export async function runPayloadCommand(args: string[]): Promise<number> {
  const names = args.filter((a) => !a.startsWith('-'));
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(
      'usage: hooksmith payload POINT\n  POINT: a point (tool_result), decorator (modify_tool_result), payload type or Cayu phase\n',
    );
    return 0;
  }
  if (names.length !== 1 || names.length !== args.length) {
    process.stderr.write('usage: hooksmith payload POINT\n');
    return 2;
  }
  const found = samplePayload(names[0]!);
  if (!found.ok) {
    process.stderr.write(`hooksmith payload: ${found.message}\n`);
    return 2;
  }
  process.stdout.write(JSON.stringify(found.payload, null, 2) + '\n');
  return 0;
}
