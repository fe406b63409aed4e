// First, so the stored theme is on <html> before anything renders.
import './lib/themeInit.ts';
// Before anything renders: effects must run with React's timing (see there why).
import './lib/preactEffects.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import './styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
