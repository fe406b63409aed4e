import type {
  PresenceFace,
  PresenceSummary,
} from '../../../../common/editor/collab/presenceSummary.ts';

/** Faces the presence strip shows before "+N". */
export const STRIP_FACES = 5;

const COLOR = /^#[0-9a-fA-F]{6}$/;

/** What the presence strip shows: who else is here. */
export interface PresenceView {
  /** Open copies of the document, this one included. */
  count: number;
  /** The faces shown: carets this page holds first, then the server's summary's. */
  faces: PresenceFace[];
  /** Others present beyond the faces shown. */
  more: number;
}

/** The face of an awareness state as its caret shows it (CollaborationCarets.ts). */
function faceOf(state: unknown): PresenceFace | null {
  const user = (state as { user?: { name?: unknown; color?: unknown } } | null)?.user;
  if (typeof user?.name !== 'string' || !user.name.trim()) return null;
  const face: PresenceFace = { name: user.name.trim() };
  if (typeof user.color === 'string' && COLOR.test(user.color)) face.color = user.color;
  return face;
}

/**
 * Who else is here (docs/ARCHITECTURE.md "Live collaboration", "Presence"): the people whose
 * presence this page holds (`states`, by client id; `own` is this page's), then the faces of the
 * server's `summary`, each face once; the count is the summary's, or the states' without one (a
 * server that sends none).
 */
export function presenceView(
  own: number,
  states: ReadonlyMap<number, unknown>,
  summary: PresenceSummary | null,
  limit = STRIP_FACES,
): PresenceView {
  const faces: PresenceFace[] = [];
  const seen = new Set<string>();
  const add = (face: PresenceFace | null) => {
    if (!face || faces.length >= limit) return;
    const key = `${face.name}\n${face.color ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    faces.push(face);
  };
  for (const [id, state] of states) if (id !== own) add(faceOf(state));
  for (const face of summary?.faces ?? []) add(face);
  const count = summary?.count ?? states.size;
  return { count, faces, more: Math.max(0, count - 1 - faces.length) };
}
