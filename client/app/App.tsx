import { Toaster } from '../components/Toaster.tsx';
import { EditorPage } from '../features/editor/EditorPage.tsx';

/**
 * The whole app. One screen for now, the editor at `/`; react-router comes with the document
 * list and settings routes, as it costs about 27 KB gzip of first download for a single route.
 */
export function App() {
  return (
    <Toaster>
      <EditorPage />
    </Toaster>
  );
}
