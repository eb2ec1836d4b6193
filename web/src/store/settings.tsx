/** Theme and layout settings, kept in localStorage (the settings drawer edits them). */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { storage } from '@/utils/storage';

export type LayoutChoice = 'auto' | 'header' | 'second';

export interface Settings {
  primaryColor: string;
  dark: boolean;
  compact: boolean;
  /** auto: 'header' when the stored home type is 1, else 'second'. */
  layout: LayoutChoice;
  watermark: boolean;
  collapsed: boolean;
}

export const defaultSettings: Settings = {
  primaryColor: '#1677ff',
  dark: false,
  compact: false,
  layout: 'auto',
  watermark: true,
  collapsed: false,
};

const KEY = 'settings';

export function loadSettings(): Settings {
  return { ...defaultSettings, ...(storage.get<Partial<Settings>>(KEY) ?? {}) };
}

interface SettingsContextValue {
  settings: Settings;
  update: (patch: Partial<Settings>) => void;
  reset: () => void;
}

const SettingsContext = createContext<SettingsContextValue | null>(null);

export function SettingsProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<Settings>(loadSettings);
  const update = useCallback((patch: Partial<Settings>) => {
    setSettings((prev) => {
      const next = { ...prev, ...patch };
      storage.set(KEY, next);
      return next;
    });
  }, []);
  const reset = useCallback(() => {
    storage.remove(KEY);
    setSettings(defaultSettings);
  }, []);
  const value = useMemo(() => ({ settings, update, reset }), [settings, update, reset]);
  return <SettingsContext.Provider value={value}>{children}</SettingsContext.Provider>;
}

export function useSettings(): SettingsContextValue {
  const ctx = useContext(SettingsContext);
  if (!ctx) return { settings: loadSettings(), update: () => undefined, reset: () => undefined };
  return ctx;
}

/** 'header' (top menu) when the stored home type is 1, otherwise 'second' (side menu). */
export function resolveLayout(choice: LayoutChoice, homeType: number | null): 'header' | 'second' {
  if (choice !== 'auto') return choice;
  return homeType === 1 ? 'header' : 'second';
}
