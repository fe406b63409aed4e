import type { AnchorHTMLAttributes } from 'react';
import { isPlainClick, navigate } from './router.ts';

/** Props of {@link Link}: those of `<a>`, with `href` required. */
export interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  /** A path on this site. */
  href: string;
}

/**
 * A real `<a href>` that the app follows without reloading; ctrl-, cmd-, shift- and middle-clicks
 * are left to the browser, so they open tabs and windows as on any site.
 */
export function Link({ href, onClick, target, ...rest }: LinkProps) {
  return (
    <a
      {...rest}
      href={href}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!isPlainClick(event, target)) return;
        event.preventDefault();
        navigate(href);
      }}
    />
  );
}
