/** Web storage with optional expiring entries (SPEC §3 "Local storage supports expiring entries"). */
/** Key prefix of every entry; entries are stored as JSON `{v: value, e?: expiresAtMs}`. */
export const PREFIX = 'cm_';

interface Entry<T> {
  v: T;
  e?: number; // expires at (ms)
}

export interface KeyValueStore {
  get<T>(key: string, fallback?: T | null): T | null;
  set<T>(key: string, value: T, ttlMs?: number): void;
  remove(key: string): void;
}

export function createStore(area: () => Storage): KeyValueStore {
  return {
    get<T>(key: string, fallback: T | null = null): T | null {
      try {
        const raw = area().getItem(PREFIX + key);
        if (raw === null) return fallback;
        const entry = JSON.parse(raw) as Entry<T>;
        if (entry.e !== undefined && entry.e < Date.now()) {
          area().removeItem(PREFIX + key);
          return fallback;
        }
        return entry.v;
      } catch {
        return fallback;
      }
    },
    set<T>(key: string, value: T, ttlMs?: number): void {
      const entry: Entry<T> = { v: value };
      if (ttlMs !== undefined) entry.e = Date.now() + ttlMs;
      try {
        area().setItem(PREFIX + key, JSON.stringify(entry));
      } catch {
        /* storage full or disabled: the value stays unsaved */
      }
    },
    remove(key: string): void {
      try {
        area().removeItem(PREFIX + key);
      } catch {
        /* storage disabled */
      }
    },
  };
}

/** localStorage: survives restarts, shared by the tabs. */
export const storage = createStore(() => window.localStorage);
/** sessionStorage: this tab only. */
export const sessionStore = createStore(() => window.sessionStorage);
