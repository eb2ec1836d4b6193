#!/usr/bin/env node
// End-to-end story against the real binary and Debian's Chromium (playwright-core, no browser download).
//
//   CLIPMATRIX_BIN       binary to run            (default ../target/debug/clipmatrix, relative to this folder)
//   CLIPMATRIX_WEB_DIR   built console to serve   (default <repo>/web/dist)
//   CHROMIUM_PATH        browser                  (default /usr/bin/chromium)
//   CLIPMATRIX_ASR_DIR   speech recognition       (default <repo>/data/asr when that folder exists)
//
// Prints one line per step and closes with `N passed, M failed[, K skipped]`; exits non-zero on failure.
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
const bin = resolve(here, process.env.CLIPMATRIX_BIN ?? '../target/debug/clipmatrix');
const webDir = resolve(process.env.CLIPMATRIX_WEB_DIR ?? join(repo, 'web/dist'));
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const artifacts = join(here, 'artifacts');
const asrDir = process.env.CLIPMATRIX_ASR_DIR ?? (existsSync(join(repo, 'data/asr')) ? join(repo, 'data/asr') : undefined);

const DEMO = { username: 'demo', password: 'Demo12345' };
const STAFF = { username: `clerk${Date.now().toString(36)}`, nickname: 'Clerk E2E', password: 'Clerk12345' };

mkdirSync(artifacts, { recursive: true });

function freePort() {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolvePort(port));
    });
  });
}

async function waitForHealth(base, server, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with code ${server.exitCode} (see artifacts/server.log)`);
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`no answer from ${base}/healthz within ${timeoutMs / 1000} s`);
}

// ---- tiny harness: the steps form one story, so after a failure the rest are skipped
const results = [];
let broken = false;
let page;

async function step(name, fn) {
  if (broken) {
    results.push({ name, state: 'skipped' });
    console.log(`- ${name} (skipped)`);
    return;
  }
  const started = Date.now();
  try {
    await fn();
    results.push({ name, state: 'passed' });
    console.log(`✓ ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    broken = true;
    results.push({ name, state: 'failed', error });
    console.log(`✗ ${name}\n    ${String(error?.stack ?? error).split('\n').slice(0, 6).join('\n    ')}`);
    if (page) {
      const file = join(artifacts, `failure-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      console.log(`    screenshot: ${file}`);
    }
  }
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

// A dialog is ready for clicks once it is shown and its zoom-in has finished: a click during the
// animation can land beside a button that is still moving (seen on a loaded CI machine).
async function dialogReady(tab, wrapTestId) {
  await tab.getByTestId(wrapTestId).waitFor();
  await tab.waitForFunction((id) => {
    const modal = document.querySelector(`[data-testid="${id}"] .ant-modal`);
    return !!modal && modal.getAnimations().length === 0 && !/zoom-(appear|enter)/.test(modal.className);
  }, wrapTestId);
}

// Click a form's OK and wait for what it must show; on a loaded machine the click can be lost, so it
// is repeated (an OK on a refused form changes nothing, so a second click is harmless).
async function submitUntilShown(tab, okTestId, ...shown) {
  for (let attempt = 1; ; attempt++) {
    await tab.getByTestId(okTestId).click();
    const ok = await Promise.all(shown.map((l) => l.waitFor({ timeout: 5000 }).then(() => true, () => false)));
    if (ok.every(Boolean)) return;
    if (attempt === 3) await Promise.all(shown.map((l) => l.waitFor()));
  }
}

// ---- story helpers
async function signIn(tab, { username, password }) {
  await page.goto('/login');
  await page.getByTestId(`login-tab-${tab}`).click();
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-agree').check();
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 20_000 });
}

async function signOut() {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('user-menu-logout').click();
  await page.waitForURL((url) => url.pathname === '/login', { timeout: 15_000 });
}

async function setLanguage(lng) {
  await page.getByTestId('lang-switch').first().click();
  await page.getByTestId(`lang-${lng}`).click();
}

async function sideMenuIds() {
  const ids = await page.locator('.ant-layout-sider [data-testid^="menu-"]').evaluateAll((els) => els.map((e) => e.dataset.testid));
  return ids.sort();
}

/** Today in China time (the list engine reads dates as UTC+8). */
function chinaToday() {
  return new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
}

/** The stored session token of the page (localStorage entry `cm_token` = {v}). */
async function pageToken(tab) {
  return tab.evaluate(() => JSON.parse(window.localStorage.getItem('cm_token') ?? 'null')?.v ?? null);
}

/** Opens an antd select found by test id and clicks the option with this title. */
async function pickOption(tab, testId, title) {
  await tab.getByTestId(testId).click();
  await tab.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${title}"]`).first().click();
}

/** Types a number into an antd InputNumber found by test id (the id sits on the input or on its wrapper). */
async function fillNumber(tab, testId, value) {
  const el = tab.getByTestId(testId);
  const input = (await el.evaluate((e) => e.tagName)) === 'INPUT' ? el : el.locator('input').first();
  await input.fill(String(value));
  await input.press('Tab');
}

async function rowIds(tab, tableId) {
  const ids = await tab.locator(`[data-testid^="${tableId}-row-"]`).evaluateAll((els) => els.map((e) => e.dataset.testid));
  return ids.map((id) => Number(id.slice(tableId.length + 5)));
}

async function main() {
  if (!existsSync(bin)) throw new Error(`binary not found: ${bin} (build it or set CLIPMATRIX_BIN)`);
  if (!existsSync(join(webDir, 'index.html'))) throw new Error(`console not built: ${webDir}/index.html (run npm run build in web/)`);

  const dataDir = mkdtempSync(join(tmpdir(), 'clipmatrix-e2e-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const log = createWriteStream(join(artifacts, 'server.log'));
  const server = spawn(bin, ['serve'], {
    cwd: dataDir,
    env: {
      ...process.env,
      CLIPMATRIX_LISTEN: `127.0.0.1:${port}`,
      CLIPMATRIX_DATA_DIR: dataDir,
      CLIPMATRIX_DEMO_PASSWORD: DEMO.password,
      CLIPMATRIX_ADMIN_PASSWORD: 'Admin12345',
      CLIPMATRIX_WEB_DIR: webDir,
      ...(asrDir ? { CLIPMATRIX_ASR_DIR: asrDir } : {}),
      RUST_LOG: process.env.RUST_LOG ?? 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout.pipe(log);
  server.stderr.pipe(log);

  let browser;
  const consoleErrors = [];
  try {
    await step('server answers /healthz', () => waitForHealth(base, server));

    await step('chromium starts', async () => {
      browser = await chromium.launch({
        executablePath: chromiumPath,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
      const context = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 860 }, locale: 'zh-CN' });
      context.setDefaultTimeout(15_000);
      page = await context.newPage();
      page.on('console', (msg) => {
        if (msg.type() === 'error') consoleErrors.push(msg.text());
      });
      page.on('pageerror', (err) => consoleErrors.push(String(err)));
    });

    await step('Swagger UI is served offline', async () => {
      for (const path of ['/api/docs', '/swagger/swagger-ui-bundle.js', '/swagger/swagger-ui.css']) {
        const res = await fetch(base + path);
        expect(res.ok, `${path} answered ${res.status}`);
      }
    });

    await step('login page (zh-CN) has the three tabs and the agreement', async () => {
      await page.goto('/login');
      for (const tab of ['account', 'mobile', 'staff']) await page.getByTestId(`login-tab-${tab}`).waitFor();
      await page.getByText('24小时内自动登录').waitFor();
      await page.getByTestId('login-username').fill('demo');
      await page.getByTestId('login-password').fill('whatever1');
      await page.getByTestId('login-submit').click();
      await page.getByText('请阅读并同意服务协议和隐私政策').first().waitFor();
      await page.getByTestId('login-username').fill('');
      await page.getByTestId('login-password').fill('');
      await page.goto('/login');
      await page.getByTestId('login-card').waitFor();
      await page.screenshot({ path: join(artifacts, 'login-zh-CN.png'), fullPage: true });
    });

    await step('demo signs in and lands on the dashboard', async () => {
      await signIn('account', DEMO);
      await page.waitForURL('**/dashboard');
      await page.getByTestId('dashboard-points').waitFor();
      await page.getByTestId('menu-dashboard').waitFor();
      await page.getByText('剩余点数').waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: join(artifacts, 'dashboard-zh-CN.png'), fullPage: true });
    });

    await step('demo creates a staff member granted only the /log menu', async () => {
      await page.getByTestId('user-menu').click();
      await page.getByTestId('user-menu-staff').click();
      await page.waitForURL('**/staffAccount');
      await page.getByTestId('staff-add').click();
      await page.getByTestId('staff-username').fill(STAFF.username);
      await page.getByTestId('staff-nickname').fill(STAFF.nickname);
      await page.getByTestId('staff-password').fill(STAFF.password);
      const added = page.waitForResponse((r) => r.url().includes('/api/user.merchant_user_sub/add'));
      await page.getByTestId('staff-modal-ok').click();
      const addRes = await added;
      expect(addRes.status() === 200, `add staff answered ${addRes.status()}`);
      // the menu authorization dialog opens for the new member
      await page.getByTestId('auth-menu-log').click();
      const saved = page.waitForResponse((r) => r.url().includes('/api/user.merchant_user_sub/authMenu') && r.request().method() === 'POST');
      await page.getByTestId('auth-menu-save').click();
      const saveRes = await saved;
      const body = await saveRes.json();
      expect(saveRes.status() === 200 && body.code === 200, `authMenu answered ${saveRes.status()} ${JSON.stringify(body)}`);
      expect(Array.isArray(body.data?.checked) && body.data.checked.length === 1, `expected one granted menu, got ${JSON.stringify(body.data)}`);
      await page.getByText(STAFF.username).first().waitFor();
    });

    await step('demo signs out', signOut);

    await step('staff signs in on the staff tab and sees only the /log menu', async () => {
      await signIn('staff', STAFF);
      await page.waitForURL('**/log');
      await page.getByTestId('menu-log').waitFor();
      const ids = await sideMenuIds();
      expect(JSON.stringify(ids) === JSON.stringify(['menu-log']), `side menu shows ${JSON.stringify(ids)}`);
    });

    await step('staff opening /staffAccount directly gets the 403 page, and the server refuses in words', async () => {
      await page.goto('/staffAccount');
      await page.getByTestId('route-forbidden').getByText('抱歉，您没有访问此页面的权限', { exact: false }).waitFor();
      expect((await page.getByTestId('staff-add').count()) === 0, 'the staff page is shown to a staff member without the menu');
      const res = await fetch(`${base}/api/user.merchant_user_sub/list`, { headers: { Authorization: `Bearer ${await pageToken(page)}`, 'accept-language': 'zh-CN' } });
      const body = await res.json();
      expect(res.status === 403 && body.message.includes('员工账号') && !body.message.includes('/'), `list answered ${res.status} ${body.message}`);
    });

    await step('staff switches the console to English', async () => {
      await page.getByTestId('menu-log').click();
      await page.waitForURL('**/log');
      await setLanguage('en');
      await page.getByTestId('menu-log').getByText('Operation log').waitFor();
      await page.getByTestId('page-title').getByText('Operation log').waitFor();
      await page.getByTestId('log-total').getByText(/^Total \d+$/).waitFor();
      await page.screenshot({ path: join(artifacts, 'staff-log-en.png'), fullPage: true });
    });

    await step('login page in English', async () => {
      await signOut();
      await page.getByTestId('login-tab-account').getByText('Enterprise account').waitFor();
      await page.getByText('Stay signed in for 24 hours').waitFor();
      await page.screenshot({ path: join(artifacts, 'login-en.png'), fullPage: true });
    });

    await step('dashboard in English', async () => {
      await signIn('account', DEMO);
      await page.waitForURL('**/dashboard');
      await page.getByText('Points remaining').waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: join(artifacts, 'dashboard-en.png'), fullPage: true });
    });

    await step('operator opens every /system page without an error', async () => {
      await signOut();
      await signIn('account', { username: 'admin', password: 'Admin12345' });
      for (const path of ['/system/merchant', '/system/role', '/system/menu', '/system/log', '/system/tasks', '/system/music']) {
        const item = page.getByTestId(`menu-${path.slice(1).replace('/', '-')}`);
        if (!(await item.isVisible())) await page.locator('.ant-layout-sider .ant-menu-submenu-title').first().click();
        await item.click();
        await page.waitForURL(`**${path}`);
        await page.waitForLoadState('networkidle');
        const errors = await page.locator('.ant-message-error').allTextContents();
        expect(errors.length === 0, `${path}: error toast ${JSON.stringify(errors)}`);
        const empty = await page.locator('[data-testid$="-empty"]').allTextContents();
        const bad = empty.filter((text) => text !== 'no data');
        expect(bad.length === 0, `${path}: table says ${JSON.stringify(bad)}`);
      }
      await page.screenshot({ path: join(artifacts, 'operator-tasks-en.png'), fullPage: true });
    });

    // ---- the widget kit on real data: filter drawer, saved common filter, column and page-size settings on /log
    let logContext;
    let lastLogUrl;
    const logCalls = [];
    await step('demo filters the operation log by today and result = success', async () => {
      // China time, so "today" is the day the server files today's rows under
      logContext = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 860 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
      logContext.setDefaultTimeout(15_000);
      page = await logContext.newPage();
      page.on('pageerror', (err) => consoleErrors.push(String(err)));
      page.on('response', (res) => {
        const url = new URL(res.url());
        if (url.pathname === '/api/index/log') logCalls.push(url);
      });
      await signIn('account', DEMO);
      await page.goto('/log');
      await page.getByTestId('log-total').waitFor();
      await page.getByTestId('log-filter-open').click();
      await page.getByTestId('log-filter-row-0').waitFor(); // created_at is preselected
      // date range: today..today from the range picker's presets
      await page.getByTestId('log-filter-value-0').locator('input').first().click();
      // a click on the preset list while it still animates in can get lost on a busy machine: pick again until it closes
      for (let attempt = 0; ; attempt += 1) {
        await page.locator('.ant-picker-dropdown:visible .ant-picker-presets li', { hasText: '今天' }).click();
        if (await page.locator('.ant-picker-dropdown:visible').first().waitFor({ state: 'hidden', timeout: 3000 }).then(() => true, () => false)) break;
        expect(attempt < 2, 'the date range picker did not take the "today" preset');
      }
      // result = success
      await page.getByTestId('log-filter-add').click();
      await pickOption(page, 'log-filter-value-1', '成功');
      // the options come from the dictionary API: a list re-rendered under the click can swallow it, so pick again
      const picked = page.getByTestId('log-filter-value-1').getByText('成功', { exact: true });
      if (!(await picked.waitFor({ timeout: 2000 }).then(() => true, () => false))) {
        const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="成功"]').first();
        if (await option.isVisible()) await option.click();
        else await pickOption(page, 'log-filter-value-1', '成功');
        await picked.waitFor();
      }
      // a dropdown left open covers the "add condition" button: close it by clicking beside it
      if (await page.locator('.ant-select-dropdown:visible').count()) await page.locator('.ant-drawer-title').click();
      await page.locator('.ant-select-dropdown:visible').first().waitFor({ state: 'hidden' }).catch(() => undefined);
      // account, operator changed from 'includes' to 'equals'
      await page.getByTestId('log-filter-add').click();
      await pickOption(page, 'log-filter-operator-2', '等于');
      await page.getByTestId('log-filter-value-2').fill(DEMO.username);
      const loaded = page.waitForResponse((r) => r.url().includes('/api/index/log') && r.url().includes('filterObj'));
      await page.getByTestId('log-filter-apply').click();
      const res = await loaded;
      lastLogUrl = new URL(res.url());
      const sent = JSON.parse(lastLogUrl.searchParams.get('filterObj'));
      const today = chinaToday();
      const want = { created_at: `${today},${today}|include`, result: 'success|=', username: `${DEMO.username}|=` };
      expect(JSON.stringify(sent) === JSON.stringify(want), `filterObj sent ${JSON.stringify(sent)}, expected ${JSON.stringify(want)}`);
      await page.getByTestId('log-filter-badge').and(page.locator('[data-count="3"]')).waitFor();
      await page.locator('.ant-drawer-content-wrapper').waitFor({ state: 'hidden' }); // apply closes the drawer
    });

    await step('demo saves that filter as a common filter', async () => {
      await page.getByTestId('log-filter-open').click();
      await page.getByTestId('log-filter-save').click();
      await page.getByTestId('log-filter-name').fill('  ');
      await submitUntilShown(page, 'log-filter-name-ok', page.getByText('名称不能为空'));
      await page.getByTestId('log-filter-name').fill('今日成功');
      await page.getByTestId('log-filter-name-ok').click();
      await page.getByText('今日成功 保存常用筛选成功').waitFor();
      await page.getByTestId('log-filter-saved-0').getByText('今日成功').waitFor();
      await page.keyboard.press('Escape');
    });

    await step('after a page reload the saved filter applies again from the list', async () => {
      await page.reload();
      await page.getByTestId('log-total').waitFor();
      await page.getByTestId('log-filter-badge').and(page.locator('[data-count="0"]')).waitFor();
      await page.getByTestId('log-filter-open').click();
      const saved = page.getByTestId('log-filter-saved-0');
      await saved.waitFor(); // the list answers after 500 ms
      const loaded = page.waitForResponse((r) => r.url().includes('/api/index/log') && r.url().includes('filterObj'));
      await saved.click();
      lastLogUrl = new URL((await loaded).url());
      const sent = JSON.parse(lastLogUrl.searchParams.get('filterObj'));
      expect(sent.result === 'success|=' && sent.username === `${DEMO.username}|=` && sent.created_at.endsWith('|include'), `filterObj ${JSON.stringify(sent)}`);
      await page.getByTestId('log-filter-badge').and(page.locator('[data-count="3"]')).waitFor();
    });

    await step('demo hides a column and changes the page size', async () => {
      const before = await page.locator('[data-testid="log-table"] thead th').count();
      await page.getByTestId('log-columns').click();
      // a click while the popover still animates in can get lost on a busy machine: click again while the box stays checked
      const hidden = () => page.waitForFunction((n) => document.querySelectorAll('[data-testid="log-table"] thead th').length === n - 1, before, { timeout: 3000 }).then(() => true, () => false);
      for (let attempt = 0; ; attempt += 1) {
        await page.getByTestId('log-col-show-path').click();
        if (await hidden()) break;
        const box = page.getByTestId('log-col-show-path');
        const input = (await box.evaluate((e) => e.tagName)) === 'INPUT' ? box : box.locator('input');
        if (!(await input.isChecked())) {
          // the click took; the table is only slow to follow
          await page.waitForFunction((n) => document.querySelectorAll('[data-testid="log-table"] thead th').length === n - 1, before);
          break;
        }
        expect(attempt < 2, 'hiding the path column did not take');
      }
      await page.getByTestId('log-columns-save').click();
      await page.getByText('saved successfully').or(page.getByText('保存成功')).first().waitFor();
      await page.keyboard.press('Escape');
      const loaded = page.waitForResponse((r) => r.url().includes('/api/index/log') && r.url().includes('pageSize=20'));
      await page.getByTestId('log-page-size').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option[title="20 条/页"]').click();
      lastLogUrl = new URL((await loaded).url());
      expect(lastLogUrl.searchParams.get('page') === '1', `page ${lastLogUrl.searchParams.get('page')}`);
      expect(lastLogUrl.searchParams.has('filterObj'), 'the filter was dropped by the page-size change');
    });

    await step('the rows shown are the rows the server returns for that filterObj', async () => {
      await page.waitForLoadState('networkidle');
      const token = await pageToken(page);
      expect(token, 'no token in the page');
      const query = new URLSearchParams({
        filterObj: lastLogUrl.searchParams.get('filterObj'),
        page: lastLogUrl.searchParams.get('page'),
        pageSize: lastLogUrl.searchParams.get('pageSize'),
      });
      const res = await fetch(`${base}/api/index/log?${query}`, { headers: { Authorization: `Bearer ${token}`, accept: 'application/json' } });
      const body = await res.json();
      expect(res.ok && body.code === 200, `direct call answered ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      const want = body.data.rows.map((r) => r.id);
      expect(want.length > 0, 'the server returned no rows for today (sign-in should have logged one)');
      const today = chinaToday();
      for (const row of body.data.rows) {
        const day = new Date(row.created_at + 8 * 3600_000).toISOString().slice(0, 10);
        expect(row.result === 'success' && row.username === DEMO.username && day === today, `row outside the filter: ${JSON.stringify(row)}`);
      }
      const shown = await rowIds(page, 'log');
      expect(JSON.stringify(shown) === JSON.stringify(want), `table shows ${JSON.stringify(shown)}, server returned ${JSON.stringify(want)}`);
      await page.getByTestId('log-total').getByText(`共 ${body.data.total} 条`).waitFor();
      // the hidden column stays hidden, and the table asked with the filter each time
      expect((await page.locator('[data-testid="log-table"] thead th', { hasText: '接口' }).count()) === 0, 'the path column is still shown');
      expect(logCalls.filter((u) => u.searchParams.has('filterObj')).length >= 3, `only ${logCalls.length} filtered loads`);
      await page.waitForTimeout(500); // let the toasts and dropdowns finish their animations
      await page.screenshot({ path: join(artifacts, 'log-filter-zh-CN.png'), fullPage: true });
      await page.getByTestId('log-filter-open').click();
      await page.getByTestId('log-filter-saved-0').waitFor();
      await page.waitForTimeout(500);
      await page.screenshot({ path: join(artifacts, 'log-filter-drawer-zh-CN.png') });
    });
    await logContext?.close().catch(() => undefined);

    // ---- dictionaries: the operator's /system/dic page (ConfigForm + EditableTable dialog, DictSelect preview)
    await step('operator adds a dictionary with two options on /system/dic and the DictSelect preview shows them', async () => {
      const dicContext = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 860 }, locale: 'zh-CN' });
      dicContext.setDefaultTimeout(15_000);
      page = await dicContext.newPage();
      page.on('pageerror', (err) => consoleErrors.push(String(err)));
      try {
        const name = `e2e_${Date.now().toString(36)}`;
        await signIn('account', { username: 'admin', password: 'Admin12345' });
        await page.goto('/system/dic');
        await page.getByTestId('menu-system-dic').getByText('数据字典').waitFor();
        await page.getByTestId('dic-total').waitFor();
        await page.getByTestId('dic-add').click();
        await page.getByTestId('dic-form-name').fill(name);
        await page.getByTestId('dic-form-title').fill('端到端 / End to end');
        // labels are bilingual: the server answers each reader in their language
        await page.getByTestId('dic-form-options-cell-0-label').fill('待处理 / Pending');
        await page.getByTestId('dic-form-options-cell-0-value').fill('pending');
        await page.getByTestId('dic-form-options-add').click();
        await page.getByTestId('dic-form-options-cell-1-label').fill('已完成 / Done');
        await page.getByTestId('dic-form-options-cell-1-value').fill('done');
        const [res] = await Promise.all([
          page.waitForResponse((r) => r.url().includes('/api/system/dic/save')),
          page.getByTestId('dic-modal-ok').click(),
        ]);
        const body = await res.json();
        expect(res.status() === 200 && body.code === 200, `save answered ${res.status()} ${JSON.stringify(body).slice(0, 200)}`);
        const sent = JSON.parse(res.request().postData() ?? '{}');
        const want = { name, title: '端到端 / End to end', options: [{ label: '待处理 / Pending', value: 'pending' }, { label: '已完成 / Done', value: 'done' }] };
        expect(JSON.stringify(sent) === JSON.stringify(want), `save sent ${JSON.stringify(sent)}`);
        await page.getByTestId('dic-modal-wrap').waitFor({ state: 'hidden' });
        // find the new row and open its preview (the DictSelect reads GET /system/dic?name=)
        const search = page.getByTestId('dic-search').locator('input');
        await search.fill(name);
        await Promise.all([
          page.waitForResponse((r) => r.url().includes('/api/system/dic/index') && r.url().includes(`name=${name}`)),
          search.press('Enter'),
        ]);
        const preview = page.getByTestId(`dic-preview-${name}`);
        await preview.click();
        const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
        await options.filter({ hasText: '待处理' }).waitFor();
        await options.filter({ hasText: '已完成' }).waitFor();
        const titles = await options.evaluateAll((els) => els.map((e) => e.getAttribute('title')));
        expect(JSON.stringify(titles) === JSON.stringify(['待处理', '已完成']), `preview shows ${JSON.stringify(titles)}`);
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(artifacts, 'system-dic-zh-CN.png'), fullPage: true });
      } finally {
        await dicContext.close().catch(() => undefined);
      }
    });

    // ---- material libraries: /video with a new shot group, uploads (direct and resumable), live progress,
    // playback and the subtitle timeline editor
    const media = mkdtempSync(join(tmpdir(), 'clipmatrix-e2e-media-'));
    const matContext = await browser?.newContext({ baseURL: base, viewport: { width: 1366, height: 860 }, locale: 'zh-CN' });
    matContext?.setDefaultTimeout(15_000);
    const mat = { group: 0, groupName: `镜头${Date.now().toString(36)}`, clip: 0, big: 0, image: 0, line: `第一句字幕 ${Date.now().toString(36)}` };
    await step('ffmpeg makes a 2 s 720x1280 clip, a 6 MB clip and an image', async () => {
      const ff = (...args) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'pipe' });
      ff('-f', 'lavfi', '-i', 'testsrc2=size=720x1280:rate=30:duration=2', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2',
        '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', join(media, 'clip.mp4'));
      // constant 30 Mbit/s (filler data keeps the rate): 2 s are over the 5 MiB direct-upload limit, yet cheap to transcode
      ff('-f', 'lavfi', '-i', 'testsrc2=size=720x1280:rate=30:duration=2', '-f', 'lavfi', '-i', 'sine=frequency=660:duration=2',
        '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '30M', '-minrate', '30M', '-maxrate', '30M', '-bufsize', '4M', '-x264-params', 'nal-hrd=cbr',
        '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', join(media, 'big.mp4'));
      ff('-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=1', '-frames:v', '1', join(media, 'still.png'));
      const big = statSync(join(media, 'big.mp4')).size;
      expect(big > 5 * 1024 * 1024 && big < 12 * 1024 * 1024, `big.mp4 is ${big} bytes`);
    });

    await step('demo opens /video and creates a shot group', async () => {
      page = await matContext.newPage();
      page.on('pageerror', (err) => consoleErrors.push(String(err)));
      await signIn('account', DEMO);
      // the libraries hang under the "素材库" group of the side menu
      if (!(await page.getByTestId('menu-video').isVisible())) await page.locator('.ant-layout-sider .ant-menu-submenu-title', { hasText: '素材库' }).click();
      await page.getByTestId('menu-video').click();
      await page.waitForURL('**/video');
      await page.getByTestId('groups').waitFor();
      await page.getByTestId('group-add').click();
      await page.getByTestId('name-input').fill(mat.groupName);
      const added = page.waitForResponse((r) => r.url().includes('/api/media.merchant_much_resource/resource_group_add'));
      await page.getByTestId('name-modal-ok').click();
      const body = await (await added).json();
      expect(body.code === 200 && body.data?.id, `resource_group_add answered ${JSON.stringify(body)}`);
      mat.group = body.data.id;
      await page.locator(`[data-testid="group-item-${mat.group}"][aria-pressed="true"]`).waitFor();
      await page.getByTestId('video-group-title').getByText(mat.groupName).waitFor();
      await page.getByTestId('video-empty').waitFor();
    });

    await step('demo uploads a video and an image directly and a 6 MB video in resumable chunks', async () => {
      // record the processing bar of every row as it changes (the stream pushes it)
      await page.evaluate(() => {
        window.__states = [];
        new MutationObserver(() => {
          for (const el of document.querySelectorAll('[data-testid^="state-"]')) {
            window.__states.push(`${el.dataset.testid}:${el.dataset.state}:${el.dataset.progress ?? ''}`);
          }
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state', 'data-progress'] });
      });
      const calls = [];
      const onResponse = (r) => {
        const path = new URL(r.url()).pathname;
        if (/add_resource|ossUpload|upload_chunk|add_upfile|getYunData/.test(path)) calls.push({ path, response: r });
      };
      page.on('response', onResponse);
      await page.getByTestId('video-upload').click();
      await page.getByTestId('video-upload-files-input').setInputFiles([join(media, 'clip.mp4'), join(media, 'still.png'), join(media, 'big.mp4')]);
      for (const i of [0, 1, 2]) await page.locator(`[data-testid="video-upload-files-item-${i}"][data-state="successful"]`).waitFor({ timeout: 60_000 });
      page.off('response', onResponse);
      const paths = calls.map((c) => c.path.replace('/api/', ''));
      expect(paths.filter((p) => p.endsWith('add_resource')).length === 2, `direct uploads: ${JSON.stringify(paths)}`);
      expect(paths.filter((p) => p.endsWith('ossUpload')).length === 1 && paths.filter((p) => p.endsWith('upload_chunk')).length === 2, `chunked upload: ${JSON.stringify(paths)}`);
      for (const c of calls) expect(c.response.status() === 200, `${c.path} answered ${c.response.status()}`);
      const stored = await Promise.all(calls.filter((c) => /add_resource|add_upfile/.test(c.path)).map((c) => c.response.json()));
      mat.clip = stored.find((b) => b.data.original_name === 'clip.mp4').data.id;
      mat.big = stored.find((b) => b.data.original_name === 'big.mp4').data.id;
      mat.image = stored.find((b) => b.data.kind === 'image').data.id;
      expect(stored.every((b) => b.data.group_id === mat.group), `stored outside the group: ${JSON.stringify(stored.map((b) => b.data.group_id))}`);
      await page.getByTestId('video-upload-dialog-wrap').locator('.ant-modal-close').click();
    });

    await step('the progress bars reach done: every row ready, the group counts 3/3', async () => {
      for (const id of [mat.clip, mat.big, mat.image]) await page.getByTestId(`video-row-${id}`).waitFor();
      for (const id of [mat.clip, mat.big, mat.image]) await page.locator(`[data-testid="state-${id}"][data-state="ready"]`).waitFor({ timeout: 90_000 });
      const seen = await page.evaluate(() => window.__states);
      expect(seen.some((s) => s.startsWith(`state-${mat.clip}:processing`)), `the clip's progress bar was never shown: ${JSON.stringify(seen.slice(-10))}`);
      await page.getByTestId(`group-count-${mat.group}`).getByText('3/3').waitFor();
      await page.getByTestId(`thumb-${mat.clip}`).and(page.locator('img')).waitFor();
      await page.getByTestId('video-total').getByText('共 3 条').waitFor();
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(artifacts, 'materials-video-zh-CN.png'), fullPage: true });
    });

    await step('demo plays the clip: the <video> loads and time advances', async () => {
      await page.getByTestId(`clip-play-${mat.clip}`).click();
      const video = page.getByTestId('media-player-video');
      await video.waitFor();
      await video.evaluate((v) => v.play().catch(() => undefined));
      await page.waitForFunction(() => {
        const v = document.querySelector('[data-testid="media-player-video"]');
        return v && v.readyState >= 2 && v.currentTime > 0.2;
      }, null, { timeout: 20_000 });
      // seeking back asks the server for a byte range
      const src = new URL(await video.getAttribute('src'), base);
      const range = await fetch(src, { headers: { Range: 'bytes=0-99' } });
      expect(range.status === 206 && (await range.arrayBuffer()).byteLength === 100, `Range request answered ${range.status}`);
      await page.getByTestId('media-player-wrap').locator('.ant-modal-close').click();
    });

    await step('demo adds a subtitle line in the timeline editor, saves, reloads: the line is there', async () => {
      await page.getByTestId(`clip-subtitles-${mat.clip}`).click();
      await page.getByTestId('timeline-body').waitFor();
      await page.getByTestId('timeline-lines-add').click();
      await page.getByTestId('timeline-lines-cell-0-content').fill(mat.line);
      // an end before the start is refused on the line itself
      await page.getByTestId('timeline-lines-cell-0-end').fill('0');
      await page.getByTestId('timeline-lines-cell-0-end-error').waitFor();
      await page.getByTestId('timeline-lines-cell-0-end').fill('1.5');
      await page.getByTestId('timeline-lines-cell-0-end-error').waitFor({ state: 'detached' });
      const saved = page.waitForResponse((r) => r.url().includes('/api/media.merchant_much_resource/save_asr_times'));
      await page.getByTestId('timeline-save').click();
      const res = await saved;
      const body = await res.json();
      expect(res.status() === 200 && body.data?.length === 1 && body.data[0].content === mat.line && body.data[0].end === 1.5, `save answered ${JSON.stringify(body)}`);
      await page.getByTestId('timeline-dirty').waitFor({ state: 'detached' });
      await page.getByTestId('timeline-close').click();
      await page.reload();
      await page.getByTestId(`clip-subtitles-${mat.clip}`).click();
      await page.getByTestId('timeline-body').waitFor();
      await page.waitForFunction((text) => document.querySelector('[data-testid="timeline-lines-cell-0-content"]')?.value === text, mat.line);
      expect((await page.getByTestId('timeline-lines-cell-0-end').inputValue()) === '1.5', 'the saved end time changed');
      await page.locator(`[data-testid="asr-state-${mat.clip}"][data-state="success"]`).first().waitFor();
      // clicking the line's number seeks the player to its start
      await page.getByTestId('timeline-player').evaluate((v) => (v.currentTime = 1.8));
      await page.getByTestId('timeline-seek-0').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="timeline-player"]')?.currentTime === 0);
    });

    await step('the timeline editor in English', async () => {
      await page.getByTestId('timeline-close').click();
      await setLanguage('en');
      await page.getByTestId('menu-video').getByText('Video library').waitFor();
      await page.getByTestId(`clip-subtitles-${mat.clip}`).click();
      await page.getByTestId('timeline-body').getByText('Content').waitFor();
      await page.getByTestId('timeline-state').getByText('Subtitles ready').waitFor();
      await page.waitForFunction(() => {
        const v = document.querySelector('[data-testid="timeline-player"]');
        return v && v.readyState >= 2;
      });
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(artifacts, 'materials-timeline-en.png') });
      await page.getByTestId('timeline-close').click();
    });
    await matContext?.close().catch(() => undefined);
    rmSync(media, { recursive: true, force: true });

    // ---- quick mix (issue 5): three shot groups filled through the API, a project made on /normal_mode,
    // five variants generated and watched on /piece_rep until they succeed, one played and marked used
    const clipMedia = mkdtempSync(join(tmpdir(), 'clipmatrix-e2e-clip-'));
    const clipContext = await browser?.newContext({ baseURL: base, viewport: { width: 1366, height: 860 }, locale: 'zh-CN' });
    clipContext?.setDefaultTimeout(15_000);
    const mix = { token: null, stamp: Date.now().toString(36), groups: [], clips: [], project: 0, variants: [], polls: 0, streams: 0 };
    mix.name = `混剪${mix.stamp}`;
    /** A call with the demo token; resolves with the envelope's data, throws on anything but code 200. */
    const clipApi = async (path, { method = 'GET', body, form } = {}) => {
      const res = await fetch(`${base}/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${mix.token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: form ?? (body ? JSON.stringify(body) : undefined),
      });
      const env = await res.json().catch(() => null);
      expect(res.ok && env?.code === 200, `${method} ${path} answered ${res.status} ${JSON.stringify(env).slice(0, 300)}`);
      return env.data;
    };
    const openClipMenu = async (id) => {
      if (!(await page.getByTestId(id).isVisible())) await page.locator('.ant-layout-sider .ant-menu-submenu-title', { hasText: /剪辑|Editing/ }).click();
      await page.getByTestId(id).click();
    };

    await step('ffmpeg makes six 1 s 720x1280 colour clips', async () => {
      for (const colour of ['red', 'orange', 'green', 'teal', 'blue', 'purple']) {
        execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=720x1280:r=30:d=1`, '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1',
          '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', join(clipMedia, `${colour}.mp4`)], { stdio: 'pipe' });
      }
    });

    await step('demo makes three shot groups through the API, two clips each, and waits until they are ready', async () => {
      page = await clipContext.newPage();
      page.on('pageerror', (err) => consoleErrors.push(String(err)));
      await signIn('account', DEMO);
      mix.token = await pageToken(page);
      expect(mix.token, 'no token in the page');
      const colours = [['red', 'orange'], ['green', 'teal'], ['blue', 'purple']];
      for (const [i, pair] of colours.entries()) {
        const group = await clipApi('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name: `镜头${i + 1}-${mix.stamp}` } });
        mix.groups.push(group);
        for (const colour of pair) {
          const form = new FormData(); // text fields before the file
          form.append('group_id', String(group.id));
          form.append('name', `${colour}-${mix.stamp}`);
          form.append('file', new Blob([readFileSync(join(clipMedia, `${colour}.mp4`))], { type: 'video/mp4' }), `${colour}.mp4`);
          const clip = await clipApi('/media.merchant_much_resource/add_resource', { method: 'POST', form });
          expect(clip.group_id === group.id, `clip stored in group ${clip.group_id}, not ${group.id}`);
          mix.clips.push(clip.id);
        }
      }
      const deadline = Date.now() + 120_000;
      for (const id of mix.clips) {
        for (;;) {
          const m = await clipApi(`/media.merchant_much_resource/resource_detail?id=${id}`);
          if (m.state === 'ready') break;
          expect(m.state !== 'failed', `clip ${id} failed: ${m.error}`);
          expect(Date.now() < deadline, `clip ${id} still ${m.state} after 120 s`);
          await new Promise((r) => setTimeout(r, 300));
        }
      }
      const { rows } = await clipApi('/clip.merchant_much_clip/get_resource_group');
      for (const g of mix.groups) expect(rows.find((r) => r.id === g.id)?.ready === 2, `group ${g.name}: ${JSON.stringify(rows.find((r) => r.id === g.id))}`);
    });

    await step('demo creates a quick-mix project from the three groups on /normal_mode', async () => {
      await openClipMenu('menu-normal_mode');
      await page.waitForURL('**/normal_mode');
      await page.getByTestId('projects-total').waitFor();
      await page.getByTestId('project-add').click();
      await page.getByTestId('project-form-name').fill(mix.name);
      // fewer than three groups is refused in the form
      await pickOption(page, 'group-picker-add', mix.groups[0].name);
      await pickOption(page, 'group-picker-add', mix.groups[1].name);
      await submitUntilShown(page, 'project-form-ok', page.getByText('至少需要 3 个镜头组'));
      await pickOption(page, 'group-picker-add', mix.groups[2].name);
      await page.getByText('至少需要 3 个镜头组').waitFor({ state: 'detached' });
      for (const g of mix.groups) await page.getByTestId(`group-ready-${g.id}`).getByText('2 个可用').waitFor();
      await page.locator('[data-testid="group-capacity"][data-capacity="8"]').waitFor();
      await page.getByTestId('group-pool-warning').getByText('建议素材至少 80 个').waitFor();
      await page.getByTestId('project-form-title').fill('春季上新');
      await page.getByTestId('project-form-output').fill('5');
      await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
      await page.getByTestId('project-form-wrap').evaluate((el) => el.scrollTo(0, 0));
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, 'clip-project-zh-CN.png'), fullPage: true });
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/clip.merchant_much_clip/add')),
        page.getByTestId('project-form-ok').click(),
      ]);
      const body = await res.json();
      expect(res.status() === 200 && body.code === 200, `add answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
      const sent = JSON.parse(res.request().postData() ?? '{}');
      expect(JSON.stringify(sent.config.groups.map((g) => g.group_id)) === JSON.stringify(mix.groups.map((g) => g.id)), `groups sent ${JSON.stringify(sent.config.groups)}`);
      expect(sent.config.title?.text === '春季上新' && sent.config.output_count === 5, `config sent ${JSON.stringify(sent.config)}`);
      mix.project = body.data.id;
      expect(body.data.capacity === 8 && body.data.small_pool === true, `project ${JSON.stringify(body.data).slice(0, 300)}`);
      await page.getByTestId('project-form-wrap').waitFor({ state: 'hidden' });
      await page.getByTestId(`projects-row-${mix.project}`).waitFor();
      await page.getByTestId(`project-capacity-${mix.project}`).getByText('8').waitFor();
      await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
      await page.screenshot({ path: join(artifacts, 'clip-projects-zh-CN.png'), fullPage: true });
    });

    await step('demo previews the plan and generates 5 variants for 10 points', async () => {
      await page.getByTestId(`project-preview-${mix.project}`).click();
      await page.getByTestId('plan-seq-4').waitFor();
      expect((await page.locator('[data-testid^="plan-seq-"]').count()) === 5, 'the plan does not show five sequences');
      expect((await page.getByTestId('plan-points').textContent()) === '10', 'the plan does not cost 10 points');
      await page.getByTestId('plan-dialog-wrap').locator('.ant-modal-close').click();
      await page.getByTestId(`project-generate-${mix.project}`).click();
      await page.locator('[data-testid="generate-points"][data-points="10"]').waitFor();
      await page.locator('[data-testid="generate-ok"]:not([disabled])').waitFor();
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/clip.merchant_much_clip/add_video')),
        page.getByTestId('generate-ok').click(),
      ]);
      const body = await res.json();
      expect(res.status() === 200 && body.data?.variant_ids?.length === 5 && body.data.points === 10, `add_video answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
      mix.variants = body.data.variant_ids;
      await page.getByTestId('generate-dialog-wrap').waitFor({ state: 'hidden' });
    });

    await step('on /piece_rep the five variants render with a progress bar and succeed', async () => {
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (url.pathname === '/api/clip.merchant_video_library/index' && url.searchParams.get('state') === 'processing') mix.polls += 1;
      });
      // progress comes from the `variant` events of /api/events; the library polls only while that stream is down
      page.on('response', (r) => {
        if (new URL(r.url()).pathname === '/api/events' && r.status() === 200) mix.streams += 1;
      });
      await openClipMenu('menu-piece_rep');
      await page.waitForURL('**/piece_rep');
      for (const id of mix.variants) await page.getByTestId(`library-row-${id}`).waitFor();
      await page.evaluate(() => {
        window.__variantStates = [];
        const record = () => {
          for (const el of document.querySelectorAll('[data-testid^="variant-state-"]')) window.__variantStates.push(`${el.dataset.testid}:${el.dataset.state}:${el.dataset.progress ?? ''}`);
        };
        record();
        new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state', 'data-progress'] });
      });
      for (const id of mix.variants) await page.locator(`[data-testid="variant-state-${id}"][data-state="success"]`).waitFor({ timeout: 240_000 });
      const seen = await page.evaluate(() => window.__variantStates);
      const failed = seen.filter((s) => s.includes(':failed'));
      expect(!failed.length, `variants failed: ${JSON.stringify(failed)}`);
      // rendering was shown (progress bar) unless every render finished before the page loaded; the rows then
      // turned success without a reload, from the event stream (or from polling while it was down)
      if (seen.some((s) => s.includes(':processing'))) expect(mix.streams > 0 || mix.polls > 0, 'while variants rendered the library neither listened to /api/events nor polled');
      for (const id of mix.variants) {
        await page.getByTestId(`variant-cover-${id}`).and(page.locator('img')).waitFor();
        await page.locator(`[data-testid="variant-used-${id}"][data-used="0"]`).waitFor();
      }
      await page.getByTestId('library-rendering').waitFor({ state: 'detached' });
    });

    await step('demo plays a variant (the <video> time advances) and marks it used', async () => {
      const id = mix.variants[0];
      await page.getByTestId(`variant-play-${id}`).click();
      const video = page.getByTestId('variant-video');
      await video.waitFor();
      await video.evaluate((v) => v.play().catch(() => undefined));
      await page.waitForFunction(() => {
        const v = document.querySelector('[data-testid="variant-video"]');
        return v && v.readyState >= 2 && v.currentTime > 0.2;
      }, null, { timeout: 20_000 });
      const duration = await video.evaluate((v) => v.duration);
      expect(duration > 2 && duration < 5, `the variant lasts ${duration} s, expected about 3 s`);
      await page.getByTestId('variant-player-wrap').locator('.ant-modal-close').click();
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/clip.merchant_video_library/video_use')),
        page.getByTestId(`variant-use-${id}`).click(),
      ]);
      const body = await res.json();
      expect(res.status() === 200 && body.data?.used === 1, `video_use answered ${res.status()} ${JSON.stringify(body).slice(0, 200)}`);
      expect(JSON.parse(res.request().postData() ?? '{}').used === true, 'video_use was not asked to mark it used');
      await page.locator(`[data-testid="variant-used-${id}"][data-used="1"]`).waitFor();
      const { rows } = await clipApi(`/clip.merchant_video_library/video_index?project_id=${mix.project}`);
      expect(rows.length === 5 && rows.filter((r) => r.used === 1).map((r) => r.id).join() === String(id), `library rows ${JSON.stringify(rows.map((r) => [r.id, r.state, r.used]))}`);
    });

    await step('the finished-video library in English', async () => {
      await setLanguage('en');
      await page.getByTestId('page-title').getByText('Finished videos').waitFor();
      await page.getByTestId(`variant-used-${mix.variants[0]}`).getByText('Used').waitFor();
      await page.getByTestId(`variant-state-${mix.variants[1]}`).getByText('Success').waitFor();
      await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(artifacts, 'piece-rep-en.png'), fullPage: true });
    });

    // ---- advanced mode, batch slice and library import (clip features after issue 5): an advanced project
    // from the same three shot groups with a caption, a later start and a transition, its variants rendered
    // and played; the quick-mix project's remaining variants rendered in one go; a 12 s video sliced by
    // fixed length into a shot group; the merchant's own finished video imported into the library
    const adv = { stamp: Date.now().toString(36), project: 0, variants: [], caption: '第二镜·新品', long: 0, finished: 0, slice: 0, source: 0, slices: [], imported: 0 };
    adv.name = `高级混剪${adv.stamp}`;
    adv.sliceName = `切片${adv.stamp}`;
    /** Waits until the <video> found by test id has loaded and played past 0.2 s; answers its duration. */
    const playsFor = async (testId) => {
      const video = page.getByTestId(testId);
      await video.waitFor();
      await video.evaluate((v) => v.play().catch(() => undefined));
      await page.waitForFunction((id) => {
        const v = document.querySelector(`[data-testid="${id}"]`);
        return v && v.readyState >= 2 && v.currentTime > 0.2;
      }, testId, { timeout: 20_000 });
      return video.evaluate((v) => v.duration);
    };

    await step('demo creates an advanced-mode project on /high_modeVisualization_clip: a caption, a later start and a fade', async () => {
      await setLanguage('zh-CN');
      await openClipMenu('menu-high_modeVisualization_clip');
      await page.waitForURL('**/high_modeVisualization_clip');
      await page.getByTestId('high-mode-page').waitFor();
      await page.getByTestId('projects-total').waitFor();
      // the quick-mix project is not an advanced one
      expect((await page.getByTestId(`projects-row-${mix.project}`).count()) === 0, 'the quick-mix project is listed in advanced mode');
      await page.getByTestId('project-add').click();
      await page.getByTestId('project-form-name').fill(adv.name);
      for (const g of mix.groups) await pickOption(page, 'group-picker-add', g.name);
      const [g1, g2, g3] = mix.groups.map((g) => g.id);
      for (const id of [g1, g2, g3]) await page.getByTestId(`group-shot-${id}`).waitFor();
      await page.locator('[data-testid="group-capacity"][data-capacity="8"]').waitFor();
      // the last shot has nothing to transition into
      const lastOff = await page.getByTestId(`group-transition-${g3}`).evaluate((e) => (e.closest('.ant-select') ?? e.querySelector('.ant-select') ?? e).classList.contains('ant-select-disabled'));
      expect(lastOff, 'the last shot offers a transition');
      // shot 1 fades into shot 2 over 600 ms, shot 2 carries a caption, shot 3 starts 0.2 s into its clips
      await pickOption(page, `group-transition-${g1}`, '淡入淡出');
      await fillNumber(page, `group-transition-ms-${g1}`, 600);
      await page.getByTestId(`group-text-${g2}`).fill(adv.caption);
      await fillNumber(page, `group-start-${g3}`, 0.2);
      await page.locator('[data-testid="project-form-shot-text"]:not([hidden])').waitFor(); // the captions' style
      expect((await page.locator('[data-testid^="group-problem-"]').count()) === 0, 'the form shows a shot problem');
      await page.getByTestId('project-form-output').fill('2');
      await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
      await page.getByTestId('project-form-wrap').evaluate((el) => el.scrollTo(0, 0));
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, 'clip-senior-project-zh-CN.png'), fullPage: true });
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/clip.merchant_senior_clip/modify')),
        page.getByTestId('project-form-ok').click(),
      ]);
      const body = await res.json();
      expect(res.status() === 200 && body.code === 200, `modify answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
      const sent = JSON.parse(res.request().postData() ?? '{}');
      const shots = sent.config.groups.map((g) => ({ group_id: g.group_id, in_ms: g.in_ms ?? 0, text: g.text ?? '', transition: g.transition ? { kind: g.transition.kind, ms: g.transition.ms } : null }));
      const want = [
        { group_id: g1, in_ms: 0, text: '', transition: { kind: 'fade', ms: 600 } },
        { group_id: g2, in_ms: 0, text: adv.caption, transition: null },
        { group_id: g3, in_ms: 200, text: '', transition: null },
      ];
      expect(!sent.id && JSON.stringify(shots) === JSON.stringify(want), `shots sent ${JSON.stringify(sent.config.groups)}`);
      expect(sent.config.output_count === 2 && sent.config.shot_style, `config sent ${JSON.stringify(sent.config)}`);
      adv.project = body.data.id;
      expect(body.data.mode === 'senior' && body.data.capacity === 8, `project ${JSON.stringify(body.data).slice(0, 300)}`);
      expect(JSON.stringify(body.data.config.groups.map((g) => g.text ?? '')) === JSON.stringify(['', adv.caption, '']), `stored shots ${JSON.stringify(body.data.config.groups)}`);
      await page.getByTestId('project-form-wrap').waitFor({ state: 'hidden' });
      await page.getByTestId(`projects-row-${adv.project}`).waitFor();
      await page.getByTestId(`project-name-${adv.project}`).getByText(adv.name).waitFor();
      await page.getByTestId(`project-capacity-${adv.project}`).getByText('8').waitFor();
      // editing it shows the shots as saved
      await page.getByTestId(`project-edit-${adv.project}`).click();
      await page.getByTestId(`group-text-${g2}`).and(page.locator(`[value="${adv.caption}"]`)).waitFor();
      await page.getByTestId(`group-transition-${g1}`).getByText('淡入淡出').waitFor();
      await page.getByTestId('project-form-wrap').locator('.ant-modal-close').click();
      await page.getByTestId('project-form-wrap').waitFor({ state: 'hidden' });
    });

    await step('demo generates 2 advanced variants; they render, succeed and play about 2.2 s', async () => {
      await page.getByTestId(`project-generate-${adv.project}`).click();
      await page.locator('[data-testid="generate-points"][data-points="4"]').waitFor();
      await page.locator('[data-testid="generate-ok"]:not([disabled])').waitFor();
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/clip.merchant_much_clip/add_video')),
        page.getByTestId('generate-ok').click(),
      ]);
      const body = await res.json();
      expect(res.status() === 200 && body.data?.variant_ids?.length === 2 && body.data.points === 4, `add_video answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
      adv.variants = body.data.variant_ids;
      await page.getByTestId('generate-dialog-wrap').waitFor({ state: 'hidden' });
      // the project's variant counts open its videos in the library
      await page.getByTestId(`project-variants-${adv.project}`).click();
      await page.waitForURL((url) => url.pathname === '/piece_rep' && url.searchParams.get('project_id') === String(adv.project));
      for (const id of adv.variants) await page.getByTestId(`library-row-${id}`).waitFor();
      for (const id of adv.variants) {
        const state = page.getByTestId(`variant-state-${id}`);
        await page.locator(`[data-testid="variant-state-${id}"]:is([data-state="success"], [data-state="failed"])`).waitFor({ timeout: 240_000 });
        const error = await page.getByTestId(`variant-error-${id}`).textContent().catch(() => null);
        expect((await state.getAttribute('data-state')) === 'success', `variant ${id} failed: ${error}`);
        await page.getByTestId(`variant-project-${id}`).getByText(adv.name).waitFor();
        await page.getByTestId(`variant-cover-${id}`).and(page.locator('img')).waitFor();
      }
      // the project filter shows only this project's videos
      const shown = (await rowIds(page, 'library')).sort((a, b) => a - b);
      expect(JSON.stringify(shown) === JSON.stringify([...adv.variants].sort((a, b) => a - b)), `the filtered library shows ${JSON.stringify(shown)}`);
      await page.getByTestId(`variant-play-${adv.variants[0]}`).click();
      // 1 + 1 + 0.8 s of shots, minus the 0.6 s fade
      const duration = await playsFor('variant-video');
      expect(duration > 1.8 && duration < 2.6, `the advanced variant lasts ${duration} s, expected about 2.2 s`);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, 'clip-senior-variant-zh-CN.png') });
      await page.getByTestId('variant-player-wrap').locator('.ant-modal-close').click();
      await page.getByTestId('variant-player-wrap').waitFor({ state: 'hidden' });
      const { rows } = await clipApi(`/clip.merchant_video_library/video_index?project_id=${adv.project}`);
      expect(rows.length === 2 && rows.every((r) => r.state === 'success' && Math.abs(r.duration_ms - 2200) < 400), `advanced variants ${JSON.stringify(rows.map((r) => [r.id, r.state, r.duration_ms]))}`);
    });

    await step('demo renders all remaining quick-mix variants from /piece_rep: 3 more for 6 points, the project is full', async () => {
      await page.getByTestId('library-project').click();
      await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${mix.name}"]`).click();
      await page.waitForURL((url) => url.searchParams.get('project_id') === String(mix.project));
      await page.getByTestId(`library-row-${mix.variants[0]}`).waitFor();
      await page.getByTestId('library-render-all').click();
      await dialogReady(page, 'generate-dialog-wrap');
      // every unique variant left: 8 possible − 5 made; the count is not editable
      await page.locator('[data-testid="generate-points"][data-points="6"]').waitFor();
      expect((await page.getByTestId('generate-count').locator('input').or(page.locator('input[data-testid="generate-count"]')).first().inputValue()) === '3', 'render all does not offer 3');
      await page.locator('[data-testid="generate-ok"]:not([disabled])').waitFor();
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/clip.merchant_video_library/job_video_add_all')),
        page.getByTestId('generate-ok').click(),
      ]);
      const body = await res.json();
      expect(res.status() === 200 && body.data?.variant_ids?.length === 3 && body.data.points === 6, `job_video_add_all answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
      expect(JSON.parse(res.request().postData() ?? '{}').id === mix.project, 'job_video_add_all was asked for another project');
      await page.getByTestId('generate-dialog-wrap').waitFor({ state: 'hidden' });
      for (const id of body.data.variant_ids) await page.getByTestId(`library-row-${id}`).waitFor();
      for (const id of body.data.variant_ids) await page.locator(`[data-testid="variant-state-${id}"][data-state="success"]`).waitFor({ timeout: 240_000 });
      // nothing is left to make
      await page.locator('[data-testid="library-render-all"][disabled]').waitFor();
      const { rows } = await clipApi(`/clip.merchant_much_clip/index?name=${encodeURIComponent(mix.name)}`);
      const project = rows.find((p) => p.id === mix.project);
      expect(project?.capacity === 0 && project.variants.success === 8, `project ${JSON.stringify(project).slice(0, 300)}`);
    });

    const sliceMedia = mkdtempSync(join(tmpdir(), 'clipmatrix-e2e-slice-'));
    await step('ffmpeg makes a 12 s long video and a 3 s finished video; demo uploads both through the API', async () => {
      const ff = (...args) => execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'pipe' });
      ff('-f', 'lavfi', '-i', 'testsrc2=size=720x1280:rate=30:duration=12', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=12',
        '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', join(sliceMedia, 'long.mp4'));
      ff('-f', 'lavfi', '-i', 'testsrc=size=720x1280:rate=30:duration=3', '-f', 'lavfi', '-i', 'sine=frequency=550:duration=3',
        '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', join(sliceMedia, 'finished.mp4'));
      adv.sourceGroup = await clipApi('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name: `长视频-${adv.stamp}` } });
      adv.sliceGroup = await clipApi('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name: `切片镜头-${adv.stamp}` } });
      adv.moveGroup = await clipApi('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name: `精选切片-${adv.stamp}` } });
      const upload = async (file, name) => {
        const form = new FormData();
        form.append('group_id', String(adv.sourceGroup.id));
        form.append('name', name);
        form.append('file', new Blob([readFileSync(join(sliceMedia, file))], { type: 'video/mp4' }), file);
        return (await clipApi('/media.merchant_much_resource/add_resource', { method: 'POST', form })).id;
      };
      adv.longName = `直播回放-${adv.stamp}`;
      adv.finishedName = `成片-${adv.stamp}`;
      adv.long = await upload('long.mp4', adv.longName);
      adv.finished = await upload('finished.mp4', adv.finishedName);
      const deadline = Date.now() + 180_000;
      for (const id of [adv.long, adv.finished]) {
        for (;;) {
          const m = await clipApi(`/media.merchant_much_resource/resource_detail?id=${id}`);
          if (m.state === 'ready') {
            if (id === adv.long) expect(m.duration_ms > 11_500 && m.duration_ms < 12_500, `the long video lasts ${m.duration_ms} ms`);
            break;
          }
          expect(m.state !== 'failed', `video ${id} failed: ${m.error}`);
          expect(Date.now() < deadline, `video ${id} still ${m.state} after 180 s`);
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    });

    await step('demo creates a fixed-length (3 s) slicing project on /batch_slice and it starts at once', async () => {
      await openClipMenu('menu-batch_slice');
      await page.waitForURL('**/batch_slice');
      await page.getByTestId('batch-slice-page').waitFor();
      await page.getByTestId('slice-create').click();
      await dialogReady(page, 'slice-form-wrap');
      // nothing filled in: the form refuses
      await submitUntilShown(page, 'slice-form-ok', page.getByText('请填写项目名称'), page.getByText('请至少选择一个视频'));
      await page.getByTestId('slice-form-name').fill(adv.sliceName);
      await pickOption(page, 'slice-form-videos', adv.longName);
      await page.getByTestId('slice-form-videos').getByText(adv.longName).waitFor();
      await page.keyboard.press('Escape'); // close the multiple select's list
      await page.locator('.ant-select-dropdown:visible').first().waitFor({ state: 'hidden' }).catch(() => undefined);
      await fillNumber(page, 'slice-form-seconds', 3);
      await pickOption(page, 'slice-form-group', adv.sliceGroup.name);
      expect(await page.getByTestId('slice-form-start').isChecked(), '"start slicing after saving" is not preselected');
      await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, 'batch-slice-form-zh-CN.png') });
      const created = page.waitForResponse((r) => r.url().includes('/api/clip.merchant_visual_editing/create_project'));
      const exported = page.waitForResponse((r) => r.url().includes('/api/clip.merchant_visual_editing/job_export'));
      await page.getByTestId('slice-form-ok').click();
      const res = await created;
      const body = await res.json();
      expect(res.status() === 200 && body.code === 200, `create_project answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
      const sent = JSON.parse(res.request().postData() ?? '{}');
      const want = { name: adv.sliceName, mode: 'fixed', seconds: 3, group_id: adv.sliceGroup.id, resource_ids: [adv.long] };
      const got = { name: sent.name, mode: sent.mode, seconds: sent.seconds, group_id: sent.group_id, resource_ids: sent.resource_ids };
      expect(JSON.stringify(got) === JSON.stringify(want), `create_project sent ${JSON.stringify(sent)}`);
      adv.slice = body.data.id;
      adv.source = body.data.sources?.[0]?.id;
      expect(adv.source && body.data.sources.length === 1 && body.data.sources[0].resource_id === adv.long, `project ${JSON.stringify(body.data).slice(0, 300)}`);
      const exp = await exported;
      const expBody = await exp.json();
      expect(exp.status() === 200 && expBody.data?.queued === 1, `job_export answered ${exp.status()} ${JSON.stringify(expBody).slice(0, 300)}`);
      await page.getByTestId('slice-form-wrap').waitFor({ state: 'hidden' });
      // the new project's detail opens by itself
      await page.getByTestId('slice-detail').waitFor();
      await page.getByTestId('slice-detail-settings').getByText(`固定时长 (每段 3 秒) · 放入 ${adv.sliceGroup.name}`).waitFor();
      await page.getByTestId(`source-state-${adv.source}`).waitFor();
      await page.getByTestId(`batchSlice-row-${adv.slice}`).waitFor({ state: 'attached' });
    });

    await step('the video is sliced into 4 clips of 3 s, listed in the project and playable', async () => {
      await page.locator(`[data-testid="source-state-${adv.source}"] [data-state="success"], [data-testid="source-state-${adv.source}"] [data-state="failed"]`).first().waitFor({ timeout: 180_000 });
      const state = await page.getByTestId(`source-state-${adv.source}`).locator('[data-state]').first().getAttribute('data-state');
      const error = await page.getByTestId(`source-state-${adv.source}`).textContent();
      expect(state === 'success', `slicing ended ${state}: ${error}`);
      await page.getByTestId('slice-count').getByText('切片（4）').waitFor();
      await page.locator('[data-testid^="slice-card-"]').nth(3).waitFor();
      const { rows, total } = await clipApi(`/clip.merchant_visual_editing/video_library?project_id=${adv.slice}`);
      expect(total === 4 && rows.length === 4, `video_library answered ${total} slices`);
      const cuts = rows.map((r) => [r.start_ms, r.end_ms]).sort((a, b) => a[0] - b[0]);
      expect(JSON.stringify(cuts.map(([s]) => s)) === '[0,3000,6000,9000]' && cuts.every(([s, e], i) => e === (cuts[i + 1]?.[0] ?? e)) && Math.abs(cuts[3][1] - 12_000) < 500,
        `cut points ${JSON.stringify(cuts)}`);
      expect(rows.every((r) => r.group_id === adv.sliceGroup.id && r.source_resource_id === adv.long && r.state === 'ready'), `slices ${JSON.stringify(rows.map((r) => [r.id, r.group_id, r.state]))}`);
      adv.slices = rows.map((r) => r.id);
      const cards = await page.locator('[data-testid^="slice-card-"]').evaluateAll((els) => els.map((e) => Number(e.dataset.testid.slice('slice-card-'.length))));
      expect(JSON.stringify([...cards].sort()) === JSON.stringify([...adv.slices].sort()), `the page shows slices ${JSON.stringify(cards)}`);
      const second = rows.find((r) => r.start_ms === 3000).id;
      await page.getByTestId(`slice-play-${second}`).click();
      const duration = await playsFor('slice-video');
      expect(duration > 2.7 && duration < 3.3, `the slice lasts ${duration} s`);
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, 'batch-slice-player-zh-CN.png') });
      await page.getByTestId('slice-player-wrap').locator('.ant-modal-close').click();
      await page.getByTestId('slice-player-wrap').waitFor({ state: 'hidden' });
      await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
      await page.screenshot({ path: join(artifacts, 'batch-slice-detail-zh-CN.png') });
    });

    await step('demo adds all the slices to another shot group; /video lists the 4 clips there, ready', async () => {
      await pickOption(page, 'slice-move-group', adv.moveGroup.name);
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/clip.merchant_visual_editing/job_video_add_all')),
        page.getByTestId('slice-move-all').click(),
      ]);
      const body = await res.json();
      expect(res.status() === 200 && body.data?.moved === 4 && body.data.group_id === adv.moveGroup.id, `job_video_add_all answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
      await page.locator('.ant-message-success', { hasText: `已将 4 个切片移入 ${adv.moveGroup.name}` }).first().waitFor();
      for (const id of adv.slices) await page.getByTestId(`slice-card-${id}`).getByText(adv.moveGroup.name).waitFor();
      await page.getByTestId('slice-detail').locator('.ant-drawer-close').click();
      await page.getByTestId('slice-detail').waitFor({ state: 'hidden' });
      await page.locator(`[data-testid="slice-state-${adv.slice}"] [data-state="success"]`).waitFor();
      await page.getByTestId(`slice-sources-${adv.slice}`).getByText('1/1').waitFor();
      await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
      await page.screenshot({ path: join(artifacts, 'batch-slice-zh-CN.png'), fullPage: true });
      // the material library: the clips are in the chosen group, ready for quick mix
      await page.goto('/video');
      await page.getByTestId('groups').waitFor();
      await page.getByTestId(`group-count-${adv.moveGroup.id}`).getByText('4/4').waitFor();
      await page.getByTestId(`group-item-${adv.moveGroup.id}`).click();
      await page.getByTestId('video-group-title').getByText(adv.moveGroup.name).waitFor();
      for (const id of adv.slices) await page.locator(`[data-testid="state-${id}"][data-state="ready"]`).waitFor();
      await page.getByTestId('video-total').getByText('共 4 条').waitFor();
      const { rows } = await clipApi('/clip.merchant_much_clip/get_resource_group');
      expect(rows.find((r) => r.id === adv.moveGroup.id)?.ready === 4, `shot group ${JSON.stringify(rows.find((r) => r.id === adv.moveGroup.id))}`);
      expect(rows.find((r) => r.id === adv.sliceGroup.id)?.count === 0, `the slicing group still holds ${JSON.stringify(rows.find((r) => r.id === adv.sliceGroup.id))}`);
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(artifacts, 'batch-slice-video-group-zh-CN.png'), fullPage: true });
    });

    await step('demo imports the finished video into /piece_rep: listed as imported and successful, and plays', async () => {
      await openClipMenu('menu-piece_rep');
      await page.waitForURL((url) => url.pathname === '/piece_rep' && !url.searchParams.has('project_id'));
      await page.getByTestId('library-table').waitFor();
      await page.getByTestId('library-import').click();
      await dialogReady(page, 'library-import-dialog-wrap');
      const search = page.getByTestId('library-import-search');
      await ((await search.evaluate((e) => e.tagName)) === 'INPUT' ? search : search.locator('input')).fill(adv.finishedName);
      await page.getByTestId(`import-video-${adv.finished}`).click();
      await page.locator('[data-testid="library-import-ok"]:not([disabled])').waitFor();
      await page.getByTestId('library-import-ok').getByText('导入（1）').waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, 'piece-rep-import-zh-CN.png') });
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/clip.merchant_video_library/add')),
        page.getByTestId('library-import-ok').click(),
      ]);
      const body = await res.json();
      expect(res.status() === 200 && body.data?.variant_ids?.length === 1, `add answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
      expect(JSON.stringify(JSON.parse(res.request().postData() ?? '{}').ids) === JSON.stringify([adv.finished]), `add sent ${res.request().postData()}`);
      adv.imported = body.data.variant_ids[0];
      await page.getByTestId('library-import-dialog-wrap').waitFor({ state: 'hidden' });
      await page.locator('.ant-message-success', { hasText: '已导入 1 个视频' }).first().waitFor();
      await page.getByTestId(`library-row-${adv.imported}`).waitFor();
      await page.locator(`[data-testid="variant-state-${adv.imported}"][data-state="success"]`).waitFor();
      await page.getByTestId(`variant-imported-${adv.imported}`).getByText('导入').waitFor();
      await page.getByTestId(`variant-project-${adv.imported}`).getByText(adv.finishedName).waitFor();
      await page.locator(`[data-testid="variant-used-${adv.imported}"][data-used="0"]`).waitFor();
      await page.getByTestId(`variant-play-${adv.imported}`).click();
      const duration = await playsFor('variant-video');
      expect(duration > 2.5 && duration < 3.5, `the imported video lasts ${duration} s`);
      await page.getByTestId('variant-player-wrap').locator('.ant-modal-close').click();
      await page.getByTestId('variant-player-wrap').waitFor({ state: 'hidden' });
      const { rows } = await clipApi('/clip.merchant_video_library/index?pageSize=100');
      const row = rows.find((r) => r.id === adv.imported);
      expect(row?.state === 'success' && row.project_id === 0 && row.clips?.[0]?.id === adv.finished, `imported row ${JSON.stringify(row).slice(0, 300)}`);
    });

    await step('importing the same video again is refused in the dialog', async () => {
      await page.getByTestId('library-import').click();
      await dialogReady(page, 'library-import-dialog-wrap');
      await page.getByTestId(`import-video-${adv.finished}`).click();
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/clip.merchant_video_library/add')),
        page.getByTestId('library-import-ok').click(),
      ]);
      expect(res.status() === 422, `a second import answered ${res.status()}`);
      await page.getByTestId('library-import-error').getByText(`该视频已在成片库中：${adv.finishedName}`).waitFor();
      await page.getByTestId('library-import-dialog-wrap').locator('.ant-modal-close').click();
      await page.getByTestId('library-import-dialog-wrap').waitFor({ state: 'hidden' });
      expect((await rowIds(page, 'library')).filter((id) => id === adv.imported).length === 1, 'the library lists the import twice');
    });

    await step('advanced mode, batch slice and the import in English', async () => {
      await setLanguage('en');
      await page.getByTestId(`variant-imported-${adv.imported}`).getByText('Imported').waitFor();
      await page.getByTestId('library-import').getByText('Import videos').waitFor();
      await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(artifacts, 'piece-rep-import-en.png'), fullPage: true });
      await openClipMenu('menu-high_modeVisualization_clip');
      await page.waitForURL('**/high_modeVisualization_clip');
      await page.getByTestId('page-title').getByText('Advanced mode').waitFor();
      await page.getByTestId(`projects-row-${adv.project}`).waitFor();
      await page.getByTestId(`project-edit-${adv.project}`).click();
      await page.getByTestId(`group-transition-${mix.groups[0].id}`).getByText('Fade').waitFor();
      await page.getByTestId('project-form-wrap').evaluate((el) => el.scrollTo(0, 0));
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(artifacts, 'clip-senior-project-en.png'), fullPage: true });
      await page.getByTestId('project-form-wrap').locator('.ant-modal-close').click();
      await page.getByTestId('project-form-wrap').waitFor({ state: 'hidden' });
      await openClipMenu('menu-batch_slice');
      await page.waitForURL('**/batch_slice');
      await page.getByTestId('page-title').getByText('Batch slice').waitFor();
      await page.locator(`[data-testid="slice-state-${adv.slice}"] [data-state="success"]`).getByText('Done').waitFor();
      await page.getByTestId(`slice-open-${adv.slice}`).click();
      await page.getByTestId('slice-count').getByText('Slices (4)').waitFor();
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(artifacts, 'batch-slice-detail-en.png') });
    });
    rmSync(sliceMedia, { recursive: true, force: true });
    await clipContext?.close().catch(() => undefined);
    rmSync(clipMedia, { recursive: true, force: true });

    // ---- matrix publishing (issue 6): demo authorizes a Douyin account (OAuth consent page) and a
    // Xiaohongshu account (QR page) against the bundled sandbox, creates a random-mode release task for
    // 6 videos over the 2 accounts and 3 days, the operator approves it on /auditCheck, the sandbox clock
    // jumps 3 days + 1 hour and the task's items all come out published
    const mx = { stamp: Date.now().toString(36), dy: 0, xhs: 0, task: 0, token: null };
    mx.dyName = `抖音E2E${mx.stamp}`;
    mx.xhsName = `小红书E2E${mx.stamp}`;
    mx.taskName = `矩阵发布${mx.stamp}`;
    // China time, so the form's "today" is the day the planner starts on
    // A browser outside UTC+8: the console still shows and takes release times in China time.
    const mxContext = await browser?.newContext({ baseURL: base, viewport: { width: 1366, height: 860 }, locale: 'zh-CN', timezoneId: 'America/New_York' });
    mxContext?.setDefaultTimeout(15_000);
    const clearToasts = async () => {
      await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
    };

    await step('demo authorizes a Douyin account on the sandbox consent page and comes back to /account_auth', async () => {
      page = await mxContext.newPage();
      page.on('pageerror', (err) => consoleErrors.push(String(err)));
      await signIn('account', DEMO);
      mx.token = await pageToken(page);
      await page.goto('/account_auth');
      await page.getByTestId('platform-cards').waitFor();
      await page.getByTestId('sandbox-dy').waitFor(); // no platform app configured: the sandbox notice is shown
      await page.getByTestId('auth-dy').click();
      await page.waitForURL((url) => url.pathname.startsWith('/sandbox/dy/'), { timeout: 20_000 });
      await page.locator('#approve').waitFor();
      await page.locator('#nickname').fill(mx.dyName);
      await page.screenshot({ path: join(artifacts, 'matrix-dy-consent.png'), fullPage: true });
      const [callback] = await Promise.all([
        page.waitForResponse((r) => new URL(r.url()).pathname === '/oauth/dy/callback'),
        page.locator('#approve').click(),
      ]);
      const location = callback.headers().location ?? '';
      const back = new URL(location, base);
      expect(callback.status() >= 300 && callback.status() < 400 && back.pathname === '/account_auth' && back.searchParams.get('authorized'), `callback answered ${callback.status()} → ${location}`);
      mx.dy = Number(back.searchParams.get('authorized'));
      await page.waitForURL((url) => url.pathname === '/account_auth');
      await page.locator('.ant-message-success', { hasText: '账号授权成功' }).first().waitFor();
      // the query string is cleaned up and the new account is in the table
      await page.waitForURL((url) => url.pathname === '/account_auth' && !url.searchParams.has('authorized'));
      await page.getByTestId(`accounts-row-${mx.dy}`).waitFor();
      await page.getByTestId(`account-name-${mx.dy}`).getByText(mx.dyName).waitFor();
      await page.getByTestId(`account-platform-${mx.dy}`).getByText('抖音').waitFor();
      await page.locator(`[data-testid="account-status-${mx.dy}"][data-status="active"]`).waitFor();
    });

    await step('demo authorizes a Xiaohongshu account: the QR page confirms and the modal closes by itself', async () => {
      await page.getByTestId('auth-xhs').click();
      await dialogReady(page, 'qr-login-wrap');
      await page.getByTestId('qr-image').waitFor();
      await page.getByTestId('qr-waiting').waitFor();
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, 'matrix-xhs-qr-zh-CN.png') });
      const loggedIn = page.waitForResponse(async (r) => {
        if (!r.url().includes('/api/task.merchant_group_user/xhsLogin')) return false;
        const body = await r.json().catch(() => null);
        return body?.data?.state === 'logged_in';
      }, { timeout: 30_000 });
      // the link opens the platform's QR page in a new tab: confirm the login there as the phone would
      const [qrTab] = await Promise.all([mxContext.waitForEvent('page'), page.getByTestId('qr-link').click()]);
      await qrTab.waitForLoadState();
      expect(new URL(qrTab.url()).pathname.startsWith('/sandbox/xhs/qr/'), `the QR link opened ${qrTab.url()}`);
      await qrTab.locator('#nickname').fill(mx.xhsName);
      await qrTab.locator('#confirm').click();
      await qrTab.waitForLoadState();
      await qrTab.close();
      const body = await (await loggedIn).json();
      mx.xhs = body.data.account?.id;
      expect(mx.xhs && body.data.account.platform === 'xhs' && body.data.account.nickname === mx.xhsName, `xhsLogin answered ${JSON.stringify(body.data).slice(0, 300)}`);
      // the poll saw the login: the modal closes without a click and says so
      await page.getByTestId('qr-login-wrap').waitFor({ state: 'hidden', timeout: 10_000 });
      await page.locator('.ant-message-success', { hasText: `账号 ${mx.xhsName} 授权成功` }).first().waitFor();
      await page.getByTestId(`accounts-row-${mx.xhs}`).waitFor();
      await page.getByTestId(`account-name-${mx.xhs}`).getByText(mx.xhsName).waitFor();
      await page.getByTestId(`account-platform-${mx.xhs}`).getByText('小红书').waitFor();
      await page.getByTestId(`accounts-row-${mx.dy}`).waitFor();
      await clearToasts();
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, 'matrix-account-auth-zh-CN.png'), fullPage: true });
    });

    await step('demo creates a random-mode release task: 2 accounts, 6 videos, 3 days × 1, the plan shows 6 posts', async () => {
      await page.goto('/send_management');
      await page.getByTestId('tasks-table').waitFor();
      await page.getByTestId('task-new').click();
      await page.getByTestId('task-step-0').waitFor();
      // 1: name, mixed platforms, both accounts
      await page.getByTestId('task-name').fill(mx.taskName);
      await page.getByTestId('task-platform-mixed').click();
      await page.getByTestId('account-picker').waitFor();
      await page.getByTestId(`account-check-${mx.dy}`).click();
      await page.getByTestId(`account-check-${mx.xhs}`).click();
      await page.getByTestId('accounts-chosen').getByText('已选 2 个').waitFor();
      await page.getByTestId('step-next').click();
      // 2: the four finished variants still free (the used one cannot be picked) and two uploaded clips
      await page.getByTestId('task-step-1').waitFor({ state: 'visible' });
      const used = mix.variants[0];
      await page.getByTestId(`video-used-v:${used}`).waitFor();
      await page.getByTestId(`video-card-v:${used}`).click();
      expect((await page.getByTestId(`video-card-v:${used}`).getAttribute('data-selected')) === 'false', 'the used variant could be picked');
      for (const id of mix.variants.slice(1)) {
        await page.getByTestId(`video-card-v:${id}`).click();
        await page.locator(`[data-testid="video-card-v:${id}"][data-selected="true"]`).waitFor();
      }
      await page.getByTestId('video-source').getByText('上传的视频').click();
      for (const id of mix.clips.slice(0, 2)) {
        await page.getByTestId(`video-card-m:${id}`).click();
        await page.locator(`[data-testid="video-card-m:${id}"][data-selected="true"]`).waitFor();
      }
      await page.getByTestId('videos-chosen').getByText('已选 6 条（成片 4，上传 2）').waitFor();
      await page.getByTestId('step-next').click();
      // 3: titles and topics
      await page.getByTestId('task-step-2').waitFor({ state: 'visible' });
      await page.getByTestId('task-titles').fill('春季上新第一弹#今日好物推荐#限时优惠别错过');
      await page.getByTestId('title-count-3').waitFor();
      await page.getByTestId('task-topics').click();
      for (const topic of ['春季上新', '好物推荐']) {
        await page.keyboard.type(topic);
        await page.keyboard.press('Enter');
      }
      await page.getByTestId('task-topics').getByText('好物推荐').waitFor();
      await page.getByTestId('task-comments').fill('欢迎来店里看看\n喜欢就点个赞');
      await page.getByTestId('step-next').click();
      // 4: random, start today, 1 a day for 3 days
      await page.getByTestId('task-step-3').waitFor({ state: 'visible' });
      await page.getByTestId('time-mode-random').click();
      await fillNumber(page, 'task-daily', 1);
      await fillNumber(page, 'task-days', 3);
      await page.locator('[data-testid="task-counts"][data-problem=""]').waitFor();
      expect((await page.getByTestId('task-capacity').count()) === 0, 'the form says 6 posts do not fit 2 accounts × 1 × 3 days');
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/matrix.merchant_publish_management/createCommonPublishTask')),
        page.getByTestId('plan-preview').click(),
      ]);
      const body = await res.json();
      expect(res.status() === 200 && body.code === 200, `preview answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
      const sent = JSON.parse(res.request().postData() ?? '{}');
      const want = { preview: true, time_mode: 'random', daily_quantity: 1, days: 3, start_date: chinaToday(), accounts: [mx.dy, mx.xhs].sort().join(), videos: mix.variants.slice(1).sort().join(), materials: mix.clips.slice(0, 2).sort().join() };
      const got = { preview: sent.preview, time_mode: sent.time_mode, daily_quantity: sent.daily_quantity, days: sent.days, start_date: sent.start_date, accounts: [...sent.account_ids].sort().join(), videos: [...sent.video_ids].sort().join(), materials: [...sent.material_ids].sort().join() };
      expect(JSON.stringify(got) === JSON.stringify(want), `preview sent ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
      const plan = body.data;
      expect(plan.count === 6 && plan.items.length === 6, `the plan has ${plan.count} items`);
      const perAccount = [mx.dy, mx.xhs].map((a) => plan.items.filter((i) => i.account_id === a).length);
      expect(perAccount.join() === '3,3', `posts per account ${perAccount}`);
      const days = new Set(plan.items.map((i) => new Date(i.at + 8 * 3600_000).toISOString().slice(0, 10)));
      expect(days.size === 3, `the plan uses the days ${JSON.stringify([...days])}`);
      await page.getByTestId('plan-view').waitFor();
      // Shown in China time, named (the browser is in New York: UTC-5).
      const firstAt = Math.min(...plan.items.map((i) => i.at));
      const shownAt = new Date(firstAt + 8 * 3600_000).toISOString().replace('T', ' ').slice(0, 19);
      await page.getByTestId('plan-table').getByText(shownAt, { exact: true }).first().waitFor();
      await page.getByTestId('plan-view').getByTestId('time-zone-note').getByText('北京时间 (UTC+8)', { exact: false }).waitFor();
      await page.getByTestId('plan-count').getByText('6', { exact: true }).waitFor();
      await page.getByTestId('plan-unplaced').getByText('0', { exact: true }).waitFor();
      await page.getByTestId('plan-per-account').getByText('3–3').waitFor();
      expect((await page.getByTestId('plan-table').locator('tbody tr.ant-table-row').count()) === 6, 'the plan table does not list 6 posts');
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, 'matrix-task-plan-zh-CN.png') });
    });

    await step('demo confirms the task: it is listed under review', async () => {
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/matrix.merchant_publish_management/createCommonPublishTask')),
        page.getByTestId('task-confirm').click(),
      ]);
      const body = await res.json();
      expect(res.status() === 200 && body.code === 200 && body.data?.task?.id, `create answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
      expect(!JSON.parse(res.request().postData() ?? '{}').preview, 'the confirm sent preview: true');
      const task = body.data.task;
      mx.task = task.id;
      expect(task.review_state === 'reviewing' && task.counts?.total === 6 && task.accounts === 2 && task.videos === 6, `task ${JSON.stringify(task).slice(0, 400)}`);
      await page.getByTestId('task-form').waitFor({ state: 'hidden' });
      await page.locator('.ant-message-success', { hasText: `任务 ${mx.taskName} 已创建，共 6 条` }).first().waitFor();
      await page.getByTestId(`tasks-row-${mx.task}`).waitFor();
      await page.locator(`[data-testid="review-${mx.task}"][data-state="reviewing"]`).getByText('审核中').waitFor();
      await page.getByTestId(`task-platform-${mx.task}`).getByText('混合').waitFor();
      await clearToasts();
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, 'matrix-send-management-reviewing-zh-CN.png'), fullPage: true });
    });

    let auditContext;
    await step('admin approves the task on /auditCheck', async () => {
      auditContext = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 860 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
      auditContext.setDefaultTimeout(15_000);
      mx.demoPage = page;
      page = await auditContext.newPage();
      page.on('pageerror', (err) => consoleErrors.push(String(err)));
      await signIn('account', { username: 'admin', password: 'Admin12345' });
      await page.goto('/auditCheck');
      await page.getByTestId(`audit-table`).waitFor();
      await page.locator(`[data-testid="review-${mx.task}"][data-state="reviewing"]`).waitFor();
      await page.getByTestId(`audit-open-${mx.task}`).click();
      await page.locator('[data-testid="audit-detail-review"][data-state="reviewing"]').waitFor();
      await page.getByTestId('audit-items').locator('tbody tr.ant-table-row').nth(5).waitFor();
      expect((await page.getByTestId('audit-items').locator('tbody tr.ant-table-row').count()) === 6, 'the review shows other than 6 items');
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, 'matrix-audit-zh-CN.png') });
      await page.getByTestId('audit-approve').click();
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/system/audit/approve')),
        page.getByTestId('audit-approve-ok').click(),
      ]);
      const body = await res.json();
      expect(res.status() === 200 && body.data?.review_state === 'approved', `approve answered ${res.status()} ${JSON.stringify(body).slice(0, 300)}`);
      await page.getByTestId('audit-detail').waitFor({ state: 'hidden' });
      await page.locator(`[data-testid="review-${mx.task}"][data-state="approved"]`).waitFor();
    });
    await auditContext?.close().catch(() => undefined);

    await step('the sandbox clock jumps 4 days + 1 hour (past the plan, which starts tomorrow when today\'s window has passed): all 6 items of the task come out published', async () => {
      page = mx.demoPage;
      const before = await (await fetch(`${base}/sandbox/_control/clock`)).json();
      const advance = 4 * 86_400_000 + 3_600_000;
      const res = await fetch(`${base}/sandbox/_control/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_ms: advance }) });
      const after = await res.json();
      expect(res.ok && after.offset_ms - before.offset_ms === advance, `clock answered ${res.status} ${JSON.stringify(after)} (before ${JSON.stringify(before)})`);
      await page.reload();
      await page.locator(`[data-testid="review-${mx.task}"][data-state="approved"]`).waitFor();
      await page.getByTestId(`task-detail-${mx.task}`).click();
      await page.getByTestId('task-detail').waitFor();
      const states = page.getByTestId('task-detail').locator('[data-testid^="item-state-"]');
      const deadline = Date.now() + 60_000;
      for (;;) {
        const seen = await states.evaluateAll((els) => els.map((e) => e.dataset.state));
        const failed = await page.getByTestId('task-detail').locator('[data-testid^="item-error-"]').evaluateAll((els) => els.map((e) => e.dataset.reason));
        expect(!seen.includes('failed'), `items failed: ${JSON.stringify(failed)}`);
        if (seen.length === 6 && seen.every((s) => s === 'published' || s === 'released')) break;
        expect(Date.now() < deadline, `after 60 s the items are ${JSON.stringify(seen)}`);
        await page.waitForTimeout(2000);
        await page.getByTestId('items-reload').click();
        await page.waitForLoadState('networkidle');
      }
      // the server agrees, and the sandbox holds the six works
      const list = await fetch(`${base}/api/task.merchant_forward_task/forward_video_release`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${mx.token}`, accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ task_id: mx.task }),
      });
      const env = await list.json();
      expect(list.ok && env.code === 200, `forward_video_release answered ${list.status} ${JSON.stringify(env).slice(0, 300)}`);
      const s = env.data.summary;
      expect(s.published + s.released === 6 && env.data.rows.every((r) => r.item_id && r.published_at), `items ${JSON.stringify(s)} ${JSON.stringify(env.data.rows.map((r) => [r.id, r.state, r.item_id]))}`);
      expect(env.data.rows.filter((r) => r.account.id === mx.dy).length === 3 && env.data.rows.filter((r) => r.account.id === mx.xhs).length === 3, 'the items are not 3 per account');
      const counts = await (await fetch(`${base}/sandbox/_control/counts`)).json();
      const ours = counts.works.filter((w) => env.data.rows.some((r) => r.item_id === w.item_id));
      expect(ours.length === 6, `the sandbox holds ${ours.length} of the task's works`);
      for (const r of env.data.rows) await page.getByTestId(`item-stats-${r.id}`).waitFor();
      await clearToasts();
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(artifacts, 'matrix-task-published-zh-CN.png') });
    });

    await step('/send_management in English', async () => {
      await page.getByTestId('task-detail').locator('.ant-drawer-close').click();
      await page.getByTestId('task-detail').waitFor({ state: 'hidden' });
      await setLanguage('en');
      await page.getByTestId('page-title').getByText('Release tasks').waitFor();
      await page.locator(`[data-testid="review-${mx.task}"][data-state="approved"]`).getByText('Approved').waitFor();
      await page.waitForFunction((id) => {
        const el = document.querySelector(`[data-testid="task-progress-${id}"]`);
        return el && (el.getAttribute('aria-valuenow') === '100' || el.querySelector('[aria-valuenow="100"]') || el.classList.contains('ant-progress-status-success'));
      }, mx.task);
      await page.waitForTimeout(400);
      await page.screenshot({ path: join(artifacts, 'matrix-send-management-en.png'), fullPage: true });
    });
    await mxContext?.close().catch(() => undefined);
  } finally {
    if (broken && consoleErrors.length) console.log(`browser console errors:\n  ${consoleErrors.slice(-10).join('\n  ')}`);
    await browser?.close().catch(() => undefined);
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r() : server.once('exit', r)));
    await new Promise((r) => log.end(r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  results.push({ name: 'setup', state: 'failed', error });
  console.log(`✗ setup: ${error?.message ?? error}`);
}
// CI keeps only the tail of the output: the failure and the server's last warnings go last.
for (const r of results.filter((x) => x.state === 'failed')) {
  console.log(`failed: ${r.name}\n    ${String(r.error?.stack ?? r.error).split('\n').slice(0, 8).join('\n    ')}`);
  const serverLog = join(artifacts, 'server.log');
  const warnings = existsSync(serverLog) ? readFileSync(serverLog, 'utf8').split('\n').filter((l) => /\b(WARN|ERROR)\b/.test(l)) : [];
  if (warnings.length) console.log(`server warnings (last ${Math.min(8, warnings.length)}):\n    ${warnings.slice(-8).join('\n    ')}`);
}
const passed = results.filter((r) => r.state === 'passed').length;
const failed = results.filter((r) => r.state === 'failed').length;
const skipped = results.filter((r) => r.state === 'skipped').length;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
