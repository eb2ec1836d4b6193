/**
 * Console pages named in hint texts by their menu names, as links (not as route paths like
 * "/speak"): a text marks a page as `[[/speak]]`, and `LinkedText` shows it as a link titled
 * "配音素材" / "Voice-overs" in the reader's language.
 */
import { Fragment } from 'react';
import { Link } from 'react-router';
import { menuTitle } from '@/router/menu';

/** A link to a console page, titled by its menu name. */
export function MenuLink({ path }: { path: string }) {
  return (
    <Link to={path} data-testid={`menu-link-${path.slice(1)}`}>
      {menuTitle(undefined, path)}
    </Link>
  );
}

const MARK = /\[\[(\/[A-Za-z0-9_/-]*)\]\]/g;

/** `text` with every `[[/path]]` shown as a `MenuLink`. */
export function LinkedText({ text }: { text: string }) {
  const parts = text.split(MARK);
  // split keeps the captured paths at the odd places
  return (
    <>
      {parts.map((part, i) => (i % 2 ? <MenuLink key={i} path={part} /> : <Fragment key={i}>{part}</Fragment>))}
    </>
  );
}
