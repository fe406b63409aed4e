import { ConflictDialog } from './ConflictDialog.tsx';
import { copyTitleOf, useConflictChoices, type ConflictTarget } from './useConflictChoices.ts';

/**
 * Settles a conflict: silently when both copies are the same, else by asking the writer.
 * Loaded on demand (the page prefetches it when idle, so it is there even offline).
 */
export function ConflictResolver(target: ConflictTarget) {
  const choices = useConflictChoices(target);
  if (!choices.asking) return null;
  return (
    <ConflictDialog
      current={target.current}
      copyTitle={copyTitleOf(target.getTitle())}
      busy={choices.busy}
      onKeepMine={() => void choices.keepMine()}
      onTakeTheirs={() => void choices.takeTheirs()}
      onKeepBoth={() => void choices.keepBoth()}
    />
  );
}
