import { describe, expect, it } from 'vitest';
import type { LoginResult } from '@/api/auth/types';
import { REMEMBER_MS, SESSION_MS } from '@/config';
import {
  clearSession,
  getAiToken,
  getToken,
  isProxySession,
  isSessionExpired,
  saveAdminInfo,
  saveLogin,
  getStoredMenu,
} from './session';

const T0 = 1_800_000_000_000;

function result(remember: boolean, expiresAt = T0 + (remember ? REMEMBER_MS : SESSION_MS)): LoginResult {
  return {
    token: 'jwt',
    expires_at: expiresAt,
    remember,
    user: {
      id: 1,
      username: 'demo',
      nickname: 'Demo',
      mobile: null,
      kind: 'merchant',
      merchant_id: 1,
      merchant_name: 'Demo',
      role: ['merchant'],
      permissions: ['*/*/*'],
      proxy_info: {},
      home_type: 2,
      ai_token: 'merchant-ai',
      vip: false,
      avatar: '',
    },
  };
}

describe('stored session expiry', () => {
  it('is valid for 6 hours after the stored time', () => {
    saveLogin(result(false, 0), T0);
    expect(getToken(T0 + SESSION_MS - 1)).toBe('jwt');
    expect(isSessionExpired(T0 + SESSION_MS)).toBe(false);
  });

  it('is logged out when more than 6 hours (21 600 000 ms) passed', () => {
    saveLogin(result(false, 0), T0);
    expect(isSessionExpired(T0 + 21_600_001)).toBe(true);
    expect(getToken(T0 + 21_600_001)).toBeNull();
    // an expired session is cleared
    expect(getToken(T0)).toBeNull();
  });

  it('lasts 24 hours with remember-me', () => {
    saveLogin(result(true, 0), T0);
    expect(getToken(T0 + SESSION_MS + 1)).toBe('jwt');
    expect(getToken(T0 + REMEMBER_MS)).toBe('jwt');
    expect(getToken(T0 + REMEMBER_MS + 1)).toBeNull();
  });

  it('honours an earlier server expiry', () => {
    saveLogin(result(true, T0 + 1000), T0);
    expect(getToken(T0 + 999)).toBe('jwt');
    expect(getToken(T0 + 1000)).toBeNull();
  });

  it('no token means logged out', () => {
    expect(getToken()).toBeNull();
    expect(isSessionExpired()).toBe(true);
  });

  it('clearSession forgets token, user and menu', () => {
    saveLogin(result(false), T0);
    saveAdminInfo({ menu: [{ id: 1, path: '/log', name: 'menu.log', icon: '', permission: [], hidden: false, admin: false, vip: false, children: [] }], permissions: [], role: [], user: result(false).user, paused_platforms: [] });
    expect(getStoredMenu()).toHaveLength(1);
    expect(getAiToken()).toBe('merchant-ai');
    clearSession();
    expect(getToken(T0)).toBeNull();
    expect(getStoredMenu()).toHaveLength(0);
    expect(getAiToken()).toBe('');
  });
});

describe('proxy sessions', () => {
  it('live in this tab only and leave the stored session alone', () => {
    saveLogin({ ...result(false), token: 'operator' }, T0);
    saveLogin({ ...result(false), token: 'merchant' }, T0, { proxy: true });
    expect(isProxySession()).toBe(true);
    expect(getToken(T0)).toBe('merchant');
    expect(window.localStorage.getItem('cm_token')).toContain('operator');
    clearSession();
    expect(isProxySession()).toBe(false);
    expect(getToken(T0)).toBe('operator');
  });
});
