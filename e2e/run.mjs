#!/usr/bin/env node
// End-to-end story against the real binary and Debian's Chromium (playwright-core, no browser download).
//
//   CLIPMATRIX_BIN       binary to run            (default ../target/debug/clipmatrix, relative to this folder)
//   CLIPMATRIX_WEB_DIR   built console to serve   (default <repo>/web/dist)
//   CHROMIUM_PATH        browser                  (default /usr/bin/chromium)
//
// Prints one line per step and closes with `N passed, M failed[, K skipped]`; exits non-zero on failure.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
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

    await step('staff opening /staffAccount directly gets the 403 toast', async () => {
      const list = page.waitForResponse((r) => r.url().includes('/api/user.merchant_user_sub/list'));
      await page.goto('/staffAccount');
      const res = await list;
      expect(res.status() === 403, `list answered ${res.status()}`);
      await page.locator('.ant-message-error').first().waitFor();
      await page.getByTestId('staff-empty').getByText('Forbidden').waitFor();
      expect((await page.getByTestId('staff-add').count()) === 0, 'the add button is shown to a staff member without the permission');
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
      for (const path of ['/system/merchant', '/system/role', '/system/menu', '/system/log', '/system/tasks']) {
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
      await page.locator('.ant-picker-dropdown:visible .ant-picker-presets li', { hasText: '今天' }).click();
      // result = success
      await page.getByTestId('log-filter-add').click();
      await pickOption(page, 'log-filter-value-1', '成功');
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
      await page.getByTestId('log-filter-name-ok').click();
      await page.getByText('名称不能为空').waitFor();
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
      await page.getByTestId('log-col-show-path').click();
      await page.waitForFunction((n) => document.querySelectorAll('[data-testid="log-table"] thead th').length === n - 1, before);
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
  } finally {
    if (broken && consoleErrors.length) console.log(`browser console errors:\n  ${consoleErrors.slice(-10).join('\n  ')}`);
    await browser?.close().catch(() => undefined);
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r() : server.once('exit', r)));
    log.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  results.push({ name: 'setup', state: 'failed', error });
  console.log(`✗ setup: ${error?.message ?? error}`);
}
const passed = results.filter((r) => r.state === 'passed').length;
const failed = results.filter((r) => r.state === 'failed').length;
const skipped = results.filter((r) => r.state === 'skipped').length;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
