// The zod side of the payload catalogue: zod loaded on first use, and the schemas several payload
// fields share (built once, with the first schema a field asks for).
import type { z as Z } from 'zod';

export type Zod = typeof Z;
let zod: Zod | undefined;
export function loadZod(): Zod {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
  return (zod ??= (require('./zod-lazy') as typeof import('./zod-lazy')).z);
}

/** Schemas several fields share, built once with the first schema. */
export interface Shared {
  jsonObject: Z.ZodRecord<Z.ZodString, Z.ZodUnknown>;
  channel: Z.ZodType;
  callInfo: Z.ZodType;
  toolCallDict: Z.ZodType;
  passage: Z.ZodType;
  message: Z.ZodType;
  /** A Python float: Pydantic takes an int there too. */
  float: Z.ZodType;
}
let shared: Shared | undefined;
export function sharedSchemas(z: Zod): Shared {
  if (shared) return shared;
  const jsonObject = z.record(z.string(), z.unknown());
  const float = z.union([z.number(), z.bigint()]);
  return (shared = {
    float,
    jsonObject,
    channel: z.object({ name: z.string().nullable().default(null), metadata: jsonObject.default({}) }),
    // pydantic's default: keys CallInfo does not declare are ignored, not refused (payloads.py:10).
    callInfo: z.looseObject({
      phone_number: z.string().nullable().default(null),
      metadata: jsonObject.default({}),
    }),
    toolCallDict: z
      .object({
        id: z.string(),
        tool_name: z.string(),
        tool_args: jsonObject,
        type: z.string().optional(),
      })
      .loose(),
    passage: z
      .object({ text: z.string(), scope: z.string(), source: z.string(), score: float.optional() })
      .loose(),
    message: z.object({ role: z.string() }).loose(),
  });
}
