// What every e2e spec shares: a fresh server and data folder per spec, Debian's Chromium (playwright-core,
// no browser download), the step harness and the story helpers.
//
//   CLIPMATRIX_BIN       binary to run            (default ../target/debug/clipmatrix, relative to this folder)
//   CLIPMATRIX_WEB_DIR   built console to serve   (default <repo>/web/dist)
//   CHROMIUM_PATH        browser                  (default /usr/bin/chromium)
//   CLIPMATRIX_ASR_DIR   speech recognition       (default <repo>/data/asr when that folder exists)
//   CLIPMATRIX_TTS_DIR   speech synthesis         (default <repo>/data/tts when that folder exists)
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..');
export const bin = resolve(here, process.env.CLIPMATRIX_BIN ?? '../target/debug/clipmatrix');
const webDir = resolve(process.env.CLIPMATRIX_WEB_DIR ?? join(repo, 'web/dist'));
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const asrDir = process.env.CLIPMATRIX_ASR_DIR ?? (existsSync(join(repo, 'data/asr')) ? join(repo, 'data/asr') : undefined);
const ttsDir = process.env.CLIPMATRIX_TTS_DIR ?? (existsSync(join(repo, 'data/tts')) ? join(repo, 'data/tts') : undefined);
export const artifacts = join(here, 'artifacts');

export const DEMO = { username: 'demo', password: 'Demo12345' };
export const ADMIN = { username: 'admin', password: 'Admin12345' };
/** The story servers' sandbox token: it opens the sandbox's controls and SMS outbox. */
export const SANDBOX_TOKEN = 'e2e-sandbox-token';

/** `fetch` of a sandbox control or outbox URL, with the sandbox token. */
export function sandboxFetch(url, init = {}) {
  return fetch(url, { ...init, headers: { ...(init.headers ?? {}), 'x-sandbox-token': SANDBOX_TOKEN } });
}

export function expect(condition, message) {
  if (!condition) throw new Error(message);
}

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
    if (server.exitCode !== null) throw new Error(`server exited with code ${server.exitCode}`);
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

/**
 * One area's story: its own server on a free port with a fresh data folder, and Chromium. The steps of a
 * story depend on each other, so after a failing step the rest of that story are skipped; the other specs
 * run on regardless. Steps are awaited in turn, and the spec ends with `finish()`. `currentPage` names the page a failure screenshot is taken of.
 */
export async function story(area, currentPage, options = {}) {
  if (!existsSync(bin)) throw new Error(`binary not found: ${bin} (build it or set CLIPMATRIX_BIN)`);
  if (!existsSync(join(webDir, 'index.html'))) throw new Error(`console not built: ${webDir}/index.html (run npm run build in web/)`);
  mkdirSync(artifacts, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), `clipmatrix-e2e-${area}-`));
  // `consoles: true`: the server drives the creator consoles (Xiaohongshu, WeChat Channels, the shop) in
  // chromium, its browser driver using the playwright-core these stories run on.
  if (options.consoles) {
    mkdirSync(join(dataDir, 'browser'), { recursive: true });
    symlinkSync(join(here, 'node_modules'), join(dataDir, 'browser/node_modules'));
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const serverLog = join(artifacts, `server-${area}.log`);
  const log = createWriteStream(serverLog);
  const server = spawn(bin, ['serve'], {
    cwd: dataDir,
    env: {
      ...process.env,
      CLIPMATRIX_LISTEN: `127.0.0.1:${port}`,
      CLIPMATRIX_DATA_DIR: dataDir,
      CLIPMATRIX_DEMO_PASSWORD: DEMO.password,
      CLIPMATRIX_ADMIN_PASSWORD: ADMIN.password,
      CLIPMATRIX_WEB_DIR: webDir,
      CLIPMATRIX_SANDBOX_TOKEN: SANDBOX_TOKEN,
      // the stories move activities, coupons and release dates with the sandbox clock
      CLIPMATRIX_SANDBOX_MOVES_APP_CLOCK: 'true',
      ...(asrDir ? { CLIPMATRIX_ASR_DIR: asrDir } : {}),
      ...(ttsDir ? { CLIPMATRIX_TTS_DIR: ttsDir } : {}),
      // extra variables; a function gets the server's base URL (e.g. to point a provider at its sandbox)
      ...(typeof options.env === 'function' ? options.env(base) : (options.env ?? {})),
      RUST_LOG: process.env.RUST_LOG ?? 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout.pipe(log);
  server.stderr.pipe(log);
  const consoleErrors = [];
  let broken = false;
  let browser;

  // a spec that dies half-way must not leave its server running
  process.on('exit', () => server.kill('SIGKILL'));
  // nor one the test runner stops (a timeout, Ctrl-C): a signal ends node without its 'exit' handlers
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      server.kill('SIGKILL');
      process.exit(130);
    });
  }

  const step = (name, fn) =>
    test(name, async (t) => {
      if (broken) {
        t.skip('an earlier step of this story failed');
        return;
      }
      try {
        await fn();
      } catch (error) {
        broken = true;
        const page = currentPage();
        if (page && !page.isClosed()) {
          const file = join(artifacts, `failure-${area}-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`);
          await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
          console.log(`screenshot: ${file}`);
        }
        throw error;
      }
    });

  await waitForHealth(base, server);
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });

  /**
   * A browser context on this server (zh-CN, 1366×860, 30 s per action unless `options` say otherwise).
   * 30 s, not 15: `make test` runs the three suites side by side on 2 cores (load average ~20 measured),
   * and a page's first load in a fresh context (its code, then its data) took over 15 s there.
   */
  const newContext = async (options = {}) => {
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1366, height: 860 }, locale: 'zh-CN', ...options });
    context.setDefaultTimeout(30_000);
    return context;
  };
  /** A page of `context` whose script errors are collected for the failure report. */
  const newPage = async (context) => {
    const page = await context.newPage();
    page.on('pageerror', (err) => consoleErrors.push(String(err)));
    trackRequests(page);
    return page;
  };
  /** Ends the story: the browser and the server stop, the data folder goes (call it last in the spec). */
  const finish = async () => {
    if (broken && consoleErrors.length) console.log(`browser console errors:\n  ${consoleErrors.slice(-10).join('\n  ')}`);
    await browser?.close().catch(() => undefined);
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r() : server.once('exit', r)));
    await new Promise((r) => log.end(r));
    if (broken) {
      const warnings = readFileSync(serverLog, 'utf8').split('\n').filter((l) => /\b(WARN|ERROR)\b/.test(l));
      if (warnings.length) console.log(`server warnings (last ${Math.min(8, warnings.length)}):\n  ${warnings.slice(-8).join('\n  ')}`);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { base, browser, step, newContext, newPage, consoleErrors, finish };
}

// Requests in flight per page, for `settled`. Playwright's 'networkidle' never comes on a console page:
// the layout keeps the event stream (/api/events) open for as long as the page lives.
const inflight = new WeakMap();
const LONG_LIVED = /\/api\/events(\?|$)|\/audition(\?|$)/;
function trackRequests(page) {
  const open = new Set();
  const state = { open, lastChange: Date.now() };
  inflight.set(page, state);
  page.on('request', (r) => {
    if (LONG_LIVED.test(new URL(r.url()).pathname)) return;
    open.add(r);
    state.lastChange = Date.now();
  });
  const done = (r) => {
    if (open.delete(r)) state.lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
}

/** Waits until `tab` has had no request in flight for `quietMs` (event streams aside): its data has loaded. */
export async function settled(tab, { quietMs = 500, timeout = 30_000 } = {}) {
  await tab.waitForLoadState('load');
  const state = inflight.get(tab);
  if (!state) throw new Error('settled: this page was not opened with newPage()');
  // First the route's page has rendered: the console drew something and no route is still loading its
  // code (router/index.tsx's PageLoading). On a loaded machine the page can ask for its data more than
  // `quietMs` after the load event, and a quiet network alone then passes before the page has started.
  await tab.waitForFunction(() => {
    const root = document.getElementById('root');
    return !!root && root.childElementCount > 0 && !document.querySelector('[data-testid="page-loading"]');
  }, undefined, { timeout });
  const deadline = Date.now() + timeout;
  for (;;) {
    if (state.open.size === 0 && Date.now() - state.lastChange >= quietMs) return;
    if (Date.now() > deadline) {
      const urls = [...state.open].map((r) => r.url()).slice(0, 5);
      throw new Error(`settled: requests still in flight after ${timeout} ms: ${urls.join(', ')}`);
    }
    await tab.waitForTimeout(100);
  }
}

// A dialog is ready for clicks once it is shown and its zoom-in has finished: a click during the
// animation can land beside a button that is still moving (seen on a loaded CI machine).
export async function dialogReady(tab, wrapTestId) {
  await tab.getByTestId(wrapTestId).waitFor();
  await tab.waitForFunction((id) => {
    const modal = document.querySelector(`[data-testid="${id}"] .ant-modal`);
    return !!modal && modal.getAnimations().length === 0 && !/zoom-(appear|enter)/.test(modal.className);
  }, wrapTestId);
}

// A popconfirm is ready for clicks once its zoom-in has finished, like a dialog: a click on its OK
// during the animation was lost on a loaded CI machine (the popconfirm stayed open, nothing was sent).
export async function popconfirmReady(tab) {
  await tab.locator('.ant-popover:not(.ant-popover-hidden)').first().waitFor();
  await tab.waitForFunction(() => {
    const pops = [...document.querySelectorAll('.ant-popover:not(.ant-popover-hidden)')];
    return pops.length > 0 && pops.every((p) => p.getAnimations().length === 0 && !/zoom-big-(appear|enter)/.test(p.className));
  });
}

// Opens a hover dropdown and clicks one of its items once the menu has finished sliding in: like a
// dialog, a click during the animation can land beside the moving item, and the menu then just closes.
export async function menuPick(tab, triggerTestId, itemName) {
  const item = tab.locator('.ant-dropdown:not(.ant-dropdown-hidden)').getByRole('menuitem', { name: itemName });
  await tab.getByTestId(triggerTestId).hover();
  await item.waitFor();
  await tab.waitForFunction(() => {
    const menus = [...document.querySelectorAll('.ant-dropdown:not(.ant-dropdown-hidden)')];
    return menus.length > 0 && menus.every((m) => m.getAnimations().length === 0 && !/slide-(up|down)-(appear|enter)/.test(m.className));
  });
  await item.click();
}

// Click a form's OK and wait for what it must show; on a loaded machine the click can be lost, so it
// is repeated (an OK on a refused form changes nothing, so a second click is harmless).
export async function submitUntilShown(tab, okTestId, ...shown) {
  for (let attempt = 1; ; attempt++) {
    await tab.getByTestId(okTestId).click();
    const ok = await Promise.all(shown.map((l) => l.waitFor({ timeout: 5000 }).then(() => true, () => false)));
    if (ok.every(Boolean)) return;
    if (attempt === 3) await Promise.all(shown.map((l) => l.waitFor()));
  }
}

export async function signIn(page, tab, { username, password }) {
  await page.goto('/login');
  await page.getByTestId(`login-tab-${tab}`).click();
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-agree').check();
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 20_000 });
}

export async function signOut(page) {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('user-menu-logout').click();
  await page.waitForURL((url) => url.pathname === '/login', { timeout: 15_000 });
}

export async function setLanguage(page, lng) {
  const item = page.getByTestId(`lang-${lng}`);
  await page.getByTestId('lang-switch').first().click();
  // The menu slides in: a click while it still moves can land on nothing (seen once under load: the
  // menu stayed open in Chinese). Click once the slide is over, then wait for the switch to be made.
  await page.locator('.ant-dropdown:not([class*="ant-slide-up-appear"]):not([class*="ant-slide-up-enter"])').filter({ has: item }).waitFor();
  await item.click();
  await page.waitForFunction((l) => document.documentElement.lang === l, lng);
}

export async function sideMenuIds(page) {
  const ids = await page.locator('.ant-layout-sider [data-testid^="menu-"]').evaluateAll((els) => els.map((e) => e.dataset.testid));
  return ids.sort();
}

/** Today in China time (the list engine reads dates as UTC+8). */
export function chinaToday() {
  return new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
}

/** The stored session token of the page (localStorage entry `cm_token` = {v}). */
export async function pageToken(tab) {
  return tab.evaluate(() => JSON.parse(window.localStorage.getItem('cm_token') ?? 'null')?.v ?? null);
}

/** Opens an antd select found by test id and clicks the option with this title. */
export async function pickOption(tab, testId, title) {
  const select = tab.getByTestId(testId);
  await select.click();
  // The option in this select's own list (its combobox names the list it controls). Any visible list is not
  // enough: another select's list may still be animating out, showing the same options, and a click there
  // is lost (seen under load, when the group picker still remounted after each pick).
  const combo = select.locator('[role="combobox"]').first();
  await tab.waitForFunction((el) => !!el?.getAttribute('aria-controls'), await combo.elementHandle());
  const list = await combo.getAttribute('aria-controls');
  const dropdown = tab.locator('.ant-select-dropdown', { has: tab.locator(`[id="${list}"]`) });
  // Click once the list stands still with its data: not while it is still sliding open (antd's motion
  // classes) nor while the select loads its options (the rows are replaced under the pointer). Either
  // swallowed a pick on a loaded machine (the batch-slice video list, refetched as the dialog opened).
  await tab.waitForFunction(
    ([el, root]) => !/-(enter|appear)\b/.test(el.className) && !root.querySelector('.anticon-loading'),
    [await dropdown.elementHandle(), await select.elementHandle()],
  );
  await dropdown.locator(`.ant-select-item-option[title="${title}"]`).first().click();
}

/** Types a number into an antd InputNumber found by test id (the id sits on the input or on its wrapper). */
export async function fillNumber(tab, testId, value) {
  const el = tab.getByTestId(testId);
  const input = (await el.evaluate((e) => e.tagName)) === 'INPUT' ? el : el.locator('input').first();
  await input.fill(String(value));
  await input.press('Tab');
}

export async function rowIds(tab, tableId) {
  const ids = await tab.locator(`[data-testid^="${tableId}-row-"]`).evaluateAll((els) => els.map((e) => e.dataset.testid));
  return ids.map((id) => Number(id.slice(tableId.length + 5)));
}

/** Signs in through the API (account and password): the session token. */
export async function signInApi(base, { username, password }) {
  const res = await fetch(`${base}/api/login/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login_type: 1, username, password, agree: true }) });
  const env = await res.json();
  expect(env.code === 200, `sign-in of ${username}: ${JSON.stringify(env)}`);
  return env.data.token;
}

/** API calls as one signed-in user: resolves with the envelope's data, throws on anything but code 200. */
export function apiAs(base, token) {
  return async (path, { method = 'GET', body, form } = {}) => {
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers: { Authorization: `Bearer ${token()}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: form ?? (body ? JSON.stringify(body) : undefined),
    });
    const env = await res.json().catch(() => null);
    expect(res.ok && env?.code === 200, `${method} ${path} answered ${res.status} ${JSON.stringify(env).slice(0, 300)}`);
    return env.data;
  };
}

/** One `seconds` (default 1) 720x1280 clip of each colour (with a tone) in `dir`, named `<colour>.mp4`. */
export function colourClips(dir, colours, seconds = 1) {
  for (const colour of colours) {
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=720x1280:r=30:d=${seconds}`, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', join(dir, `${colour}.mp4`)], { stdio: 'pipe' });
  }
}

/** Uploads `<dir>/<file>` into a shot group through the API; resolves with the new material. */
export async function uploadClip(api, dir, groupId, file, name) {
  const form = new FormData(); // text fields before the file
  form.append('group_id', String(groupId));
  form.append('name', name);
  form.append('file', new Blob([readFileSync(join(dir, file))], { type: 'video/mp4' }), file);
  return api('/media.merchant_much_resource/add_resource', { method: 'POST', form });
}

/** Waits until every material is ready (fails at once on a failed one); resolves with their details. */
export async function waitReady(api, ids, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  const ready = [];
  for (const id of ids) {
    for (;;) {
      const m = await api(`/media.merchant_much_resource/resource_detail?id=${id}`);
      if (m.state === 'ready') {
        ready.push(m);
        break;
      }
      expect(m.state !== 'failed', `material ${id} failed: ${m.error}`);
      expect(Date.now() < deadline, `material ${id} still ${m.state} after ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  return ready;
}

