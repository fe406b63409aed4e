import type { CaretUser } from './CollaborationCarets.ts';

/** Caret colours, dark enough for white label text, told apart by most colour-blind readers. */
const CARET_COLORS = ['#b45309', '#1d4ed8', '#047857', '#7c3aed', '#be123c', '#0e7490', '#4d7c0f'];

/**
 * The name and colour of this writer's caret in other tabs and browsers: the account's name (or
 * e-mail), and a colour fixed by the account id, so that a writer keeps their colour everywhere.
 */
export function caretUserOf(user: {
  id: string;
  name: string | null;
  email: string | null;
}): CaretUser {
  let hash = 0;
  for (const char of user.id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return {
    name: user.name?.trim() || user.email?.trim() || 'Someone',
    color: CARET_COLORS[hash % CARET_COLORS.length]!,
  };
}
