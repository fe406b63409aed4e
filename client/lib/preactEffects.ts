import { options } from 'preact';

/**
 * The client ships Preact's React compatibility layer (see vite.config.ts). Preact runs
 * `useEffect` after the next paint, React right after the render that scheduled it. Tiptap's
 * `useEditor` relies on React's timing: the editor it creates while rendering is destroyed
 * unless the effect marking it mounted runs within a millisecond, so under Preact's timing every
 * page would build its editor twice and hooks holding the first one would hold a dead editor.
 * Running effects in a microtask after the render gives React's order back.
 */
options.requestAnimationFrame = (callback) => queueMicrotask(callback);
