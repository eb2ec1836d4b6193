/**
 * Stored client session (SPEC §3 "Stored client state"): token + token timestamp, user record,
 * menu info, permissions, logo info with the merchant token, home type.
 */
import type { InitAdmin, LoginResult, MenuNode, UserRecord } from '@/api/auth/types';
import { REMEMBER_MS, SESSION_MS } from '@/config';
import { sessionStore, storage as localStore, type KeyValueStore } from '@/utils/storage';

const K = {
  token: 'token',
  tokenTime: 'token_time',
  expiresAt: 'token_expires_at',
  remember: 'remember',
  user: 'user',
  menu: 'menu',
  permissions: 'permissions',
  roles: 'roles',
  logo: 'logo_info',
  homeType: 'home_type',
} as const;

export interface LogoInfo {
  /** Merchant AI token sent as the Ai-Token header. */
  token: string;
  name?: string;
}

/**
 * A session entered through an operator's proxy token lives in this tab only (sessionStorage), so the
 * operator's own session in the other tabs is left alone. Every other session is in localStorage.
 */
const PROXY_FLAG = 'proxy_session';

function backend(): KeyValueStore {
  return sessionStore.get<boolean>(PROXY_FLAG) ? sessionStore : localStore;
}

const storage: KeyValueStore = {
  get<T>(key: string, fallback: T | null = null): T | null {
    return backend().get<T>(key, fallback);
  },
  set<T>(key: string, value: T, ttlMs?: number): void {
    backend().set<T>(key, value, ttlMs);
  },
  remove(key: string): void {
    backend().remove(key);
  },
};

type Listener = () => void;
const listeners = new Set<Listener>();

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit() {
  listeners.forEach((l) => l());
}

/** Stores a fresh token (login, proxy login, registration or sliding refresh). */
export function saveLogin(result: LoginResult, now: number = Date.now(), options: { proxy?: boolean } = {}): void {
  if (options.proxy) sessionStore.set(PROXY_FLAG, true);
  storage.set(K.token, result.token);
  storage.set(K.tokenTime, now);
  storage.set(K.expiresAt, result.expires_at ?? null);
  storage.set(K.remember, Boolean(result.remember));
  saveUser(result.user);
  emit();
}

export function saveUser(user: UserRecord): void {
  storage.set(K.user, user);
  storage.set<LogoInfo>(K.logo, { token: user.ai_token ?? '', name: user.merchant_name ?? undefined });
  if (user.home_type) storage.set(K.homeType, user.home_type);
  if (Array.isArray(user.permissions)) storage.set(K.permissions, user.permissions);
  if (Array.isArray(user.role)) storage.set(K.roles, user.role);
}

export function saveAdminInfo(info: InitAdmin): void {
  storage.set(K.menu, info.menu ?? []);
  storage.set(K.permissions, info.permissions ?? []);
  storage.set(K.roles, info.role ?? []);
  if (info.user) saveUser(info.user);
}

/** How long a stored token may be used: 6 h, or 24 h when remember-me was ticked. */
export function sessionLimitMs(): number {
  return storage.get<boolean>(K.remember) ? REMEMBER_MS : SESSION_MS;
}

export function isSessionExpired(now: number = Date.now()): boolean {
  const time = storage.get<number>(K.tokenTime);
  if (!storage.get<string>(K.token) || typeof time !== 'number') return true;
  if (now - time > sessionLimitMs()) return true;
  const expiresAt = storage.get<number>(K.expiresAt);
  return typeof expiresAt === 'number' && expiresAt > 0 && now >= expiresAt;
}

/** The token when the session is still valid; an expired session is cleared and null returned. */
export function getToken(now: number = Date.now()): string | null {
  const token = storage.get<string>(K.token);
  if (!token) return null;
  if (isSessionExpired(now)) {
    clearSession();
    return null;
  }
  return token;
}

export function isLoggedIn(now: number = Date.now()): boolean {
  return getToken(now) !== null;
}

export function tokenAgeMs(now: number = Date.now()): number {
  const time = storage.get<number>(K.tokenTime);
  return typeof time === 'number' ? now - time : Number.POSITIVE_INFINITY;
}

export function clearSession(): void {
  const hadToken = storage.get<string>(K.token) !== null;
  for (const key of Object.values(K)) {
    if (key !== K.homeType) storage.remove(key);
  }
  sessionStore.remove(PROXY_FLAG);
  if (hadToken) emit();
}

export function getStoredUser(): UserRecord | null {
  return storage.get<UserRecord>(K.user);
}

export function getStoredMenu(): MenuNode[] {
  return storage.get<MenuNode[]>(K.menu) ?? [];
}

export function getStoredPermissions(): string[] {
  return storage.get<string[]>(K.permissions) ?? [];
}

export function getStoredRoles(): string[] {
  return storage.get<string[]>(K.roles) ?? [];
}

/** Merchant token from the stored logo info, else the user's ai_token, else empty. */
export function getAiToken(): string {
  return storage.get<LogoInfo>(K.logo)?.token || getStoredUser()?.ai_token || '';
}

export function getHomeType(): number | null {
  return storage.get<number>(K.homeType) ?? localStore.get<number>(K.homeType);
}

export function setHomeType(value: number): void {
  localStore.set(K.homeType, value);
}

export function isProxySession(): boolean {
  return Boolean(sessionStore.get<boolean>(PROXY_FLAG));
}
