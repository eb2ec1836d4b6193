/**
 * Saved common filters (SPEC §3 "Saved filter", §7 "Saved common filters (list, save, delete) make
 * no network call and return after 500 ms"): kept in localStorage per signed-in user and per table.
 */
import { getStoredUser } from '@/store/session';
import { storage } from '@/utils/storage';
import { wt } from '../i18n';
import type { FilterObj, SavedFilter } from './model';

export const SAVED_FILTER_DELAY_MS = 500;

function storageKey(scope: string): string {
  const user = getStoredUser();
  const who = user ? `${user.id}` : 'anonymous';
  return `common_filters_${who}_${scope}`;
}

function later<T>(value: () => T): Promise<T> {
  return new Promise<T>((resolve, reject) =>
    setTimeout(() => {
      try {
        resolve(value());
      } catch (error) {
        reject(error);
      }
    }, SAVED_FILTER_DELAY_MS),
  );
}

function read(scope: string): SavedFilter[] {
  const list = storage.get<SavedFilter[]>(storageKey(scope));
  return Array.isArray(list) ? list.filter((f) => f && typeof f.title === 'string' && f.filterObj && typeof f.filterObj === 'object') : [];
}

/** SPEC §5: a name is required and must contain a non-blank character. */
export function validateFilterName(title: string | undefined | null): string | null {
  return title && title.trim() ? null : wt('filter.nameRequired');
}

export function listSavedFilters(scope: string): Promise<SavedFilter[]> {
  return later(() => read(scope));
}

/** Saves (a filter with the same name is replaced) and resolves with the stored entry. */
export function saveFilter(scope: string, title: string, filterObj: FilterObj): Promise<SavedFilter> {
  return later(() => {
    const invalid = validateFilterName(title);
    if (invalid) throw new Error(invalid);
    const name = title.trim();
    const entry: SavedFilter = { id: `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, title: name, filterObj: { ...filterObj } };
    const list = read(scope).filter((f) => f.title !== name);
    storage.set(storageKey(scope), [...list, entry]);
    return entry;
  });
}

export function deleteSavedFilter(scope: string, id: string): Promise<void> {
  return later(() => {
    storage.set(
      storageKey(scope),
      read(scope).filter((f) => f.id !== id),
    );
  });
}
