/** Business constants of SPEC §9, kept in one place. */
export const APP_VERSION = '1.6.9';
export const API_BASE = '/api';
export const REQUEST_TIMEOUT_MS = 60_000;
/** When false, GET requests carry two timestamp query params so no cache answers them. */
export const REQUEST_CACHE = false;
export const SUCCESS_CODE = 200;
export const SESSION_MS = 21_600_000; // 6 h
export const REMEMBER_MS = 86_400_000; // 24 h, what the server grants with remember-me
export const TOKEN_REFRESH_AFTER_MS = 30 * 60_000;
export const CHUNK_TIMEOUT_MS = 120_000;
export const DEFAULT_LANGUAGE = 'zh-CN';
export const LANGUAGES = ['zh-CN', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const PAGE_SIZES = [10, 20, 30, 40, 50];
export const DEFAULT_PAGE_SIZE = 10;
export const WATERMARK_TILE = 150;
export const SMS_COUNTDOWN_S = 60;
export const ADMIN_ROLE = 'Administrator';
