import { z } from 'zod';

/**
 * Who else has a live document open, as the server sums it up for one person (docs/ARCHITECTURE.md
 * "Live collaboration", "Presence"): sent as a Hocuspocus stateless message, because in a crowded
 * document the awareness states a person receives are only those of the carets near theirs.
 */
export interface PresenceSummary {
  /** Open copies of the document (a person with two tabs counts twice), this one included. */
  count: number;
  /** The first few others present whose carets this person is not being sent, in arrival order. */
  faces: PresenceFace[];
}

/** One face of a summary: the name and colour on that person's caret. */
export interface PresenceFace {
  name: string;
  /** #rrggbb, or absent when the person published none the editor would show. */
  color?: string;
}

/** The `type` that tells a presence summary among stateless messages. */
export const PRESENCE_SUMMARY_TYPE = 'presence';

/** The longest name a face carries; a caret's label needs no more. */
export const MAX_FACE_NAME = 80;

const summarySchema = z.object({
  type: z.literal(PRESENCE_SUMMARY_TYPE),
  count: z.number().int().nonnegative(),
  faces: z
    .array(
      z.object({
        name: z.string().max(MAX_FACE_NAME),
        color: z
          .string()
          .regex(/^#[0-9a-fA-F]{6}$/)
          .optional(),
      }),
    )
    .max(32),
});

/** The stateless payload of `summary`. */
export function presenceSummaryPayload(summary: PresenceSummary): string {
  return JSON.stringify({ type: PRESENCE_SUMMARY_TYPE, ...summary });
}

/** The summary a stateless payload holds, or null when it holds something else (or is malformed). */
export function readPresenceSummary(payload: string): PresenceSummary | null {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return null;
  }
  const parsed = summarySchema.safeParse(json);
  if (!parsed.success) return null;
  const { count, faces } = parsed.data;
  return { count, faces };
}
