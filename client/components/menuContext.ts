import { createContext } from 'react';

/** Lets a menu item close the menu it sits in. */
export const MenuContext = createContext<{ close: () => void }>({ close: () => undefined });
