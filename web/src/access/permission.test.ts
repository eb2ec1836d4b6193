import { describe, expect, it } from 'vitest';
import { hasPermission, hasRole, isAdministrator, matchPermission, permissionOfPath } from './permission';

describe('matchPermission', () => {
  it('*/*/* grants everything', () => {
    expect(matchPermission('*/*/*', 'user/merchant_user_sub/add')).toBe(true);
    expect(matchPermission('*/*/*', 'system/merchant/index')).toBe(true);
  });
  it('* matches one segment', () => {
    expect(matchPermission('user/merchant_user_sub/*', 'user/merchant_user_sub/add')).toBe(true);
    expect(matchPermission('system/*/*', 'system/tasks/retry')).toBe(true);
    expect(matchPermission('user/*/list', 'user/merchant_user_sub/list')).toBe(true);
    expect(matchPermission('user/*/list', 'user/merchant_user_sub/add')).toBe(false);
  });
  it('different paths or lengths do not match', () => {
    expect(matchPermission('index/log/*', 'user/merchant_user_sub/list')).toBe(false);
    expect(matchPermission('index/log', 'index/log/index')).toBe(false);
    expect(matchPermission('index/log/index', 'index/log/index')).toBe(true);
  });
  it('a * in the needed string accepts any granted segment', () => {
    expect(matchPermission('index/log/index', 'index/log/*')).toBe(true);
  });
});

describe('hasPermission', () => {
  const staff = ['index/log/*', 'common/merchant_usage_record/*'];
  it('one', () => {
    expect(hasPermission(staff, 'index/log/index')).toBe(true);
    expect(hasPermission(staff, 'user/merchant_user_sub/list')).toBe(false);
    expect(hasPermission(staff, ['index/log/index', 'user/merchant_user_sub/list'], 'one')).toBe(true);
  });
  it('any', () => {
    expect(hasPermission(staff, ['user/merchant_user_sub/list', 'index/log/index'], 'any')).toBe(true);
    expect(hasPermission(staff, ['user/merchant_user_sub/list', 'system/merchant/index'], 'any')).toBe(false);
  });
  it('all', () => {
    expect(hasPermission(staff, ['index/log/index', 'common/merchant_usage_record/index'], 'all')).toBe(true);
    expect(hasPermission(staff, ['index/log/index', 'user/merchant_user_sub/list'], 'all')).toBe(false);
    expect(hasPermission(['*/*/*'], ['index/log/index', 'system/role/add'], 'all')).toBe(true);
  });
  it('nothing needed is always allowed; nothing granted allows nothing', () => {
    expect(hasPermission([], undefined)).toBe(true);
    expect(hasPermission([], [])).toBe(true);
    expect(hasPermission([], 'index/log/index')).toBe(false);
    expect(hasPermission(null, 'index/log/index')).toBe(false);
  });
});

describe('roles', () => {
  it('membership', () => {
    expect(hasRole(['merchant', 'vip'], 'vip')).toBe(true);
    expect(hasRole(['merchant'], ['Administrator', 'vip'])).toBe(false);
    expect(hasRole(undefined, 'merchant')).toBe(false);
  });
  it('Administrator', () => {
    expect(isAdministrator(['Administrator'])).toBe(true);
    expect(isAdministrator(['administrator'])).toBe(false);
    expect(isAdministrator(['merchant'])).toBe(false);
  });
});

describe('permissionOfPath', () => {
  it('turns the first dot and slash into segments', () => {
    expect(permissionOfPath('/user.merchant_user_sub/add')).toBe('user/merchant_user_sub/add');
    expect(permissionOfPath('/index/log')).toBe('index/log/index');
    expect(permissionOfPath('/system/tasks/retry')).toBe('system/tasks/retry');
  });
});
