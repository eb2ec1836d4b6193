/**
 * Titles and topics handed to the release-task form from another page (the SEO "titles from keywords"
 * page, the hot lists' "use this topic"): kept in this tab's sessionStorage, read once when the form
 * opens. `RELEASE_FORM_PATH` opens the form.
 */
import { sessionStore } from '@/utils/storage';

const KEY = 'matrix.releaseTitles';
const TOPICS_KEY = 'matrix.releaseTopics';
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

/** Topics (without '#') for the next release-task form; added to any handed before. */
export function stashReleaseTopics(topics: readonly string[]): void {
  const have = sessionStore.get<unknown>(TOPICS_KEY);
  const before = Array.isArray(have) ? have.filter((s): s is string => typeof s === 'string') : [];
  const clean = topics.map((s) => s.replace(/^#+/, '').trim()).filter(Boolean);
  sessionStore.set(TOPICS_KEY, [...new Set([...before, ...clean])]);
}

/** The handed topics (then forgotten), or none. */
export function takeReleaseTopics(): string[] {
  const value = sessionStore.get<unknown>(TOPICS_KEY);
  sessionStore.remove(TOPICS_KEY);
  return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : [];
}
