/** Who a writer is to the others: the name on their caret and its colour (#rrggbb). */
export interface CaretUser {
  /** Shown on the caret's label. */
  name: string;
  /** #rrggbb; anything else is shown grey. */
  color: string;
}

/** Caret colours, dark enough for white label text, told apart by most colour-blind readers. */
const CARET_COLORS = ['#b45309', '#1d4ed8', '#047857', '#7c3aed', '#be123c', '#0e7490', '#4d7c0f'];

/**
 * The name and colour of a writer's caret as the others see it: the account's name, and a colour
 * fixed by the account id, so that a writer keeps their colour everywhere. The server sets it in
 * every presence state it passes on (server/collab/collabEngine.ts), whatever the client
 * declared; the editor declares the same, so its caret reads right before the server's arrives.
 * The e-mail address is never shown: people who came in through a link would read each other's.
 */
export function caretUserOf(user: { id: string; name: string | null }): CaretUser {
  let hash = 0;
  for (const char of user.id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return {
    name: user.name?.trim() || 'Someone',
    color: CARET_COLORS[hash % CARET_COLORS.length]!,
  };
}
