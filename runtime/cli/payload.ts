// `hooksmith payload POINT` — prints a valid sample payload for a point, as the engine sends it.
import { samplePayload } from '../engine/samples';
import { parseCommandArgs } from './args';
import { stringifyJson } from '../json/lossless-json';

export async function runPayloadCommand(args: string[]): Promise<number> {
  const parsed = parseCommandArgs(args, {});
  if (typeof parsed !== 'string' && parsed.values.help) {
    process.stdout.write(
      'usage: hooksmith payload POINT\n  POINT: a point (tool_result), decorator (modify_tool_result), payload type or Cayu phase\n',
    );
    return 0;
  }
  if (typeof parsed === 'string' || parsed.positionals.length !== 1) {
    process.stderr.write('usage: hooksmith payload POINT\n');
    return 2;
  }
  const found = samplePayload(parsed.positionals[0]!);
  if (!found.ok) {
    process.stderr.write(`hooksmith payload: ${found.message}\n`);
    return 2;
  }
  process.stdout.write(stringifyJson(found.payload, 2) + '\n');
  return 0;
}
