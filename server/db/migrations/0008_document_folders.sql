-- Documents live in folders, as the files of an imported vault do (docs/ARCHITECTURE.md "Data"):
-- '' is the top, 'Projects/2026' a folder inside another. The API checks the same rules and
-- answers 400 first (common/vault/folderPath.ts); the constraint keeps any other writer to them.
-- No leading, trailing or doubled '/', no '.' or '..' segment, no backslash, no control character.
ALTER TABLE documents ADD COLUMN folder text NOT NULL DEFAULT ''
  CONSTRAINT documents_folder_shape CHECK (
    char_length(folder) <= 1000
    AND coalesce(array_length(string_to_array(folder, '/'), 1), 0) <= 32
    AND folder !~ '(^/|/$|//|\\|(^|/)\.\.?(/|$)|[[:cntrl:]])'
  );

-- Exporting one folder reads the owner's live documents by folder.
CREATE INDEX documents_owner_folder ON documents (owner_id, folder) WHERE deleted_at IS NULL;
