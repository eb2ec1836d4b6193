/** Rules of the AI voice page that mirror the server's (docs/spec-decisions.md "AI voice"). */
import { limits } from '@/api/limits';
import type { Voice } from '@/api/ai/types';

/** SPEC §5: voice copy up to 300 characters. */
export const MAX_CHARS = limits.ai.MAX_CHARS;

/** Points for a script: 1 per started 100 characters (what the server takes), 0 for no text. */
export function price(text: string): number {
  const n = [...text.trim()].length;
  return n === 0 ? 0 : Math.ceil(n / 100);
}

export type VoiceGroupKey = 'favourites' | 'zh' | 'en' | 'clones';

/** The voice picker's groups: favourites, Mandarin, English, the merchant's clones (empty ones left out). */
export function voiceGroups(voices: Voice[]): { key: VoiceGroupKey; voices: Voice[] }[] {
  const groups: { key: VoiceGroupKey; voices: Voice[] }[] = [
    { key: 'favourites', voices: voices.filter((v) => v.liked) },
    { key: 'zh', voices: voices.filter((v) => !v.liked && v.source === 'builtin' && v.language === 'zh') },
    { key: 'en', voices: voices.filter((v) => !v.liked && v.source === 'builtin' && v.language === 'en') },
    { key: 'clones', voices: voices.filter((v) => !v.liked && v.source === 'clone') },
  ];
  return groups.filter((g) => g.voices.length > 0);
}

/** 12_345 ms -> "0:12". */
export function clock(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
