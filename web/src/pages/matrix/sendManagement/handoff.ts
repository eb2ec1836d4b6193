/**
 * Titles handed to the release-task form from another page (the SEO "titles from keywords" page): kept
 * in this tab's sessionStorage, read once when the form opens. `RELEASE_FORM_PATH` opens the form.
 */
import { sessionStore } from '@/utils/storage';

const KEY = 'matrix.releaseTitles';
export const RELEASE_FORM_PATH = '/send_management?new=1';

export function stashReleaseTitles(titles: readonly string[]): void {
  sessionStore.set(KEY, [...titles]);
}

/** The handed titles (then forgotten), or none. */
export function takeReleaseTitles(): string[] {
  const value = sessionStore.get<unknown>(KEY);
  sessionStore.remove(KEY);
  return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : [];
}
