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

const COLOR = /^#[0-9a-fA-F]{6}$/;
/** The most faces a summary may carry; the server sends five. */
const MAX_FACES = 32;

/** The stateless payload of `summary`. */
export function presenceSummaryPayload(summary: PresenceSummary): string {
  return JSON.stringify({ type: PRESENCE_SUMMARY_TYPE, ...summary });
}

/**
 * The summary a stateless payload holds, or null when it holds something else (or is malformed).
 * Checked by hand, not with zod: the editor page reads it, and zod stays out of its first
 * download (client/lib/startChecks.ts).
 */
export function readPresenceSummary(payload: string): PresenceSummary | null {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return null;
  }
  const { type, count, faces } = (json ?? {}) as Record<string, unknown>;
  if (type !== PRESENCE_SUMMARY_TYPE || !Number.isSafeInteger(count) || Number(count) < 0) {
    return null;
  }
  if (!Array.isArray(faces) || faces.length > MAX_FACES) return null;
  const read: PresenceFace[] = [];
  for (const face of faces as unknown[]) {
    const { name, color } = (face ?? {}) as Record<string, unknown>;
    if (typeof name !== 'string' || name.length > MAX_FACE_NAME) return null;
    if (color !== undefined && (typeof color !== 'string' || !COLOR.test(color))) return null;
    read.push(color === undefined ? { name } : { name, color });
  }
  return { count: count as number, faces: read };
}
