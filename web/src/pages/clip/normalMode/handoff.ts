/**
 * A hot-list song handed to the quick-mix form (the /hotmusic page's "use in a mix"): kept in this tab's
 * sessionStorage, read once when a new project's form opens. `MIX_FORM_PATH` opens that form. The
 * platforms' music boards give a song's name and author, not its audio, so the form picks the song
 * from the merchant's music library when it is there and otherwise says how to add it.
 */
import { sessionStore } from '@/utils/storage';

const KEY = 'clip.mixMusic';
export const MIX_FORM_PATH = '/normal_mode?new=1';

export interface HandedMusic {
  title: string;
  author: string;
}

export function stashMixMusic(music: HandedMusic): void {
  sessionStore.set(KEY, { title: music.title, author: music.author });
}

/** The handed song (then forgotten), or null. */
export function takeMixMusic(): HandedMusic | null {
  const v = sessionStore.get<unknown>(KEY);
  sessionStore.remove(KEY);
  if (!v || typeof v !== 'object') return null;
  const { title, author } = v as Record<string, unknown>;
  return typeof title === 'string' && title.trim() ? { title: title.trim(), author: typeof author === 'string' ? author : '' } : null;
}

/** The library track that is the handed song: its name contains the song's title (case and spaces ignored). */
export function matchMusic<T extends { name: string }>(rows: readonly T[], music: HandedMusic): T | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, '');
  const title = norm(music.title);
  return title ? rows.find((r) => norm(r.name).includes(title)) : undefined;
}
