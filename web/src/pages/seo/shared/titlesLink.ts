/** The address of "titles from keywords" with words handed over (`?kw=a&kw=b`), and reading them back. */
export const NEW_TITLE_PATH = '/keywords-new_title';

export function newTitleLink(words: readonly string[]): string {
  const q = new URLSearchParams();
  for (const w of words) q.append('kw', w);
  const s = q.toString();
  return s ? `${NEW_TITLE_PATH}?${s}` : NEW_TITLE_PATH;
}

export function handedKeywords(search: URLSearchParams): string[] {
  return [...new Set(search.getAll('kw').map((s) => s.trim()).filter(Boolean))];
}
