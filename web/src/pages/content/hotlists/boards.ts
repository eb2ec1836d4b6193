/**
 * The hot-list pages (SPEC §2 "Hot lists"), the boards each shows (the server's `domain::hotlists`
 * has the same table and answers it as `boards`) and which columns and "use" actions a board has.
 */
import type { HotPage } from '@/api/content';

export const PAGE_OF_PATH: Record<string, HotPage> = {
  '/hotmusic': 'music',
  '/keywords': 'keywords',
  '/hotvideo': 'video',
  '/hottopic': 'topic',
  '/life': 'life',
  '/doyen': 'doyen',
};

export const PAGE_BOARDS: Record<HotPage, readonly string[]> = {
  music: ['music_hot', 'music_soar', 'music_original'],
  keywords: ['keywords'],
  video: ['hot_video'],
  topic: ['topic'],
  life: ['food', 'food_shop', 'travel'],
  doyen: ['stars', 'amusement', 'sport', 'drama', 'car', 'game'],
};

/** How a rank change reads: 'new', 'up', 'down', 'same', or null when the platform gives none. */
export function changeKind(change: string): 'new' | 'up' | 'down' | 'same' | null {
  const c = change.trim();
  if (!c) return null;
  if (c === 'new') return 'new';
  const n = Number(c);
  if (!Number.isFinite(n)) return null;
  return n > 0 ? 'up' : n < 0 ? 'down' : 'same';
}

/** m:ss of a song's seconds. */
export function songLength(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
