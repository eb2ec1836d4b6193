// The browser sidecar of clipmatrix (crates/platforms/src/browser/driver.rs): playwright-core driving
// Debian's chromium, one persistent context (profile) per account, JSON lines over stdio.
//   in:  {"id": 7, "op": "goto", "ctx": "c1", "url": "...", "timeout": 30000}
//   out: {"id": 7, "ok": true, "result": {"url": "..."}}  or  {"id": 7, "ok": false, "error": {"kind", "message"}}
// Requests run concurrently; answers come in any order. The first line out is {"ready": true}.
// This file is built into the server and written to <data>/browser/driver.mjs; its node_modules
// (playwright-core, scripts/browser/package.json) are installed there by scripts/browser/install.sh.
import { chromium } from 'playwright-core';
import readline from 'node:readline';

const contexts = new Map(); // ctx id -> { context, page }
const out = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// A human pace: around `mean` ms, never a fixed rhythm.
const jitter = (mean) => (mean > 0 ? Math.round(mean * (0.5 + Math.random())) : 0);

function page(req) {
  const c = contexts.get(req.ctx);
  if (!c) throw Object.assign(new Error(`no browser ${req.ctx}`), { kind: 'closed' });
  return c.page;
}
const first = (req) => page(req).locator(req.selector).first();

function proxyOf(url) {
  if (!url) return undefined;
  const u = new URL(url);
  const p = { server: `${u.protocol}//${u.host}` };
  if (u.username) p.username = decodeURIComponent(u.username);
  if (u.password) p.password = decodeURIComponent(u.password);
  return p;
}

const ops = {
  async open(req) {
    const context = await chromium.launchPersistentContext(req.profile, {
      executablePath: req.executablePath,
      headless: req.headless !== false,
      locale: req.locale || 'zh-CN',
      timezoneId: req.timezoneId || 'Asia/Shanghai',
      userAgent: req.userAgent || undefined,
      viewport: req.viewport || undefined,
      proxy: proxyOf(req.proxy),
      timeout: req.timeout,
      args: ['--no-first-run', '--no-default-browser-check', '--disable-dev-shm-usage'],
    });
    // A profile new on this node takes the account's stored state (cookies, local storage,
    // IndexedDB) from another node's last flow: the cluster's copy of the login.
    if (req.state) await context.setStorageState(req.state);
    const page = context.pages()[0] || (await context.newPage());
    contexts.set(req.ctx, { context, page });
    context.on('close', () => contexts.delete(req.ctx));
    return { open: contexts.size };
  },
  async close(req) {
    const c = contexts.get(req.ctx);
    contexts.delete(req.ctx);
    if (c) await c.context.close().catch(() => {});
    return { open: contexts.size };
  },
  async goto(req) {
    await page(req).goto(req.url, { waitUntil: 'domcontentloaded', timeout: req.timeout });
    return { url: page(req).url() };
  },
  async url(req) {
    return { url: page(req).url() };
  },
  async wait_for(req) {
    await first(req).waitFor({ state: 'visible', timeout: req.timeout });
    return {};
  },
  async wait_any(req) {
    const p = page(req);
    const end = Date.now() + req.timeout;
    for (;;) {
      for (let i = 0; i < req.selectors.length; i++) {
        if (await p.locator(req.selectors[i]).first().isVisible().catch(() => false)) return { index: i };
      }
      if (Date.now() > end) {
        throw Object.assign(new Error(`none of ${JSON.stringify(req.selectors)} appeared`), { kind: 'timeout' });
      }
      await sleep(100);
    }
  },
  async visible(req) {
    return { visible: await first(req).isVisible() };
  },
  async count(req) {
    return { count: await page(req).locator(req.selector).count() };
  },
  async click(req) {
    const l = first(req);
    // A short hover: the element may be gone (the page moved on), and the click below owns the timeout.
    await l.hover({ timeout: Math.min(req.timeout, 2000) }).catch(() => {});
    await sleep(jitter(req.delay));
    await l.click({ timeout: req.timeout, delay: jitter(req.delay / 2) });
    return {};
  },
  async type(req) {
    const l = first(req);
    await l.click({ timeout: req.timeout });
    if (req.append) await l.press('Control+End', { timeout: req.timeout });
    else await l.fill('', { timeout: req.timeout });
    for (const ch of req.text) {
      await l.pressSequentially(ch, { timeout: req.timeout });
      await sleep(jitter(req.delay));
    }
    return {};
  },
  async box(req) {
    const b = await first(req).boundingBox({ timeout: req.timeout });
    if (!b) throw new Error(`${req.selector} is not shown`);
    return b;
  },
  // A person's drag: press on the handle, move right by dx in uneven steps, pause, let go (a slider
  // captcha the account's owner solved from its picture in our console).
  async drag(req) {
    const p = page(req);
    const b = await first(req).boundingBox({ timeout: req.timeout });
    if (!b) throw new Error(`${req.selector} is not shown`);
    const y = b.y + b.height / 2;
    let x = b.x + b.width / 2;
    await p.mouse.move(x, y);
    await sleep(jitter(req.delay));
    await p.mouse.down();
    const end = x + req.dx;
    const steps = 12 + Math.floor(Math.random() * 8);
    for (let i = 1; i <= steps; i++) {
      // ease out: big moves first, small ones near the end, a pixel of wobble
      const t = 1 - (1 - i / steps) ** 2;
      x = b.x + b.width / 2 + req.dx * t;
      await p.mouse.move(x, y + (Math.random() - 0.5) * 2);
      await sleep(jitter(req.delay / 3));
    }
    await p.mouse.move(end, y);
    await sleep(jitter(req.delay));
    await p.mouse.up();
    return {};
  },
  async fill(req) {
    await first(req).fill(req.value, { timeout: req.timeout });
    return {};
  },
  async select(req) {
    await first(req).selectOption(req.value, { timeout: req.timeout });
    return {};
  },
  async set_files(req) {
    await first(req).setInputFiles(req.files, { timeout: req.timeout });
    return {};
  },
  async text(req) {
    return { text: await first(req).innerText({ timeout: req.timeout }) };
  },
  async texts(req) {
    return { texts: await page(req).locator(req.selector).allInnerTexts() };
  },
  async attr(req) {
    return { value: await first(req).getAttribute(req.name, { timeout: req.timeout }) };
  },
  async attrs(req) {
    const values = await page(req)
      .locator(req.selector)
      .evaluateAll((els, name) => els.map((e) => e.getAttribute(name) || ''), req.name);
    return { values };
  },
  async screenshot(req) {
    const target = req.selector ? first(req) : page(req);
    const png = await target.screenshot({ timeout: req.timeout, type: 'png' });
    return { png: png.toString('base64') };
  },
  // The account's login as portable state (Playwright's storage state with IndexedDB), kept sealed
  // with the account so any node can act for it (social-auto-upload keeps the same per account).
  async state(req) {
    const c = contexts.get(req.ctx);
    if (!c) throw Object.assign(new Error(`no browser ${req.ctx}`), { kind: 'closed' });
    return { state: await c.context.storageState({ indexedDB: true }) };
  },
  // A page's own data (an initial state object), read as JSON by an expression the flow wrote.
  async eval(req) {
    return { value: await page(req).evaluate(req.expression) };
  },
  // The page's own answers to its API calls (a console that keeps ids out of its DOM lists them
  // there): from now on, JSON answers whose URL holds one of `parts` are kept for `responses`.
  async watch(req) {
    const c = contexts.get(req.ctx);
    if (!c) throw Object.assign(new Error(`no browser ${req.ctx}`), { kind: 'closed' });
    c.watch = req.parts;
    c.seen = [];
    if (!c.watching) {
      c.watching = true;
      c.page.on('response', async (r) => {
        if (!c.watch || !c.watch.some((part) => r.url().includes(part))) return;
        const body = await r.json().catch(() => undefined);
        if (body !== undefined) c.seen.push({ url: r.url(), body });
        if (c.seen.length > 50) c.seen.shift();
      });
    }
    return {};
  },
  // The watched answers whose URL holds `part` (taken: each is answered once), waiting up to the
  // timeout for the first.
  async responses(req) {
    const c = contexts.get(req.ctx);
    if (!c) throw Object.assign(new Error(`no browser ${req.ctx}`), { kind: 'closed' });
    const end = Date.now() + req.timeout;
    for (;;) {
      const hit = (c.seen || []).filter((s) => s.url.includes(req.part));
      if (hit.length) {
        c.seen = c.seen.filter((s) => !s.url.includes(req.part));
        return { bodies: hit.map((s) => s.body) };
      }
      if (Date.now() > end) {
        throw Object.assign(new Error(`the page made no call to ${req.part}`), { kind: 'timeout' });
      }
      await sleep(50);
    }
  },
  async html(req) {
    return { html: await page(req).content() };
  },
  async ping() {
    return { open: contexts.size };
  },
  async shutdown() {
    await Promise.all([...contexts.values()].map((c) => c.context.close().catch(() => {})));
    contexts.clear();
    setTimeout(() => process.exit(0), 10);
    return {};
  },
};

function kindOf(e) {
  if (e && e.kind) return e.kind;
  if (e && e.name === 'TimeoutError') return 'timeout';
  const m = String((e && e.message) || e);
  if (/Target page, context or browser has been closed|Target closed|has been closed/.test(m)) return 'closed';
  return 'page';
}

const rl = readline.createInterface({ input: process.stdin });
rl.on('line', async (line) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return;
  }
  const op = ops[req.op];
  try {
    if (!op) throw new Error(`unknown op ${req.op}`);
    out({ id: req.id, ok: true, result: await op(req) });
  } catch (e) {
    // Playwright's call log (with terminal colours) stays out: the first lines say what failed.
    const message = String((e && e.message) || e).split('\nCall log:')[0].slice(0, 2000);
    out({ id: req.id, ok: false, error: { kind: kindOf(e), message } });
  }
});
// The worker went away: close the browsers (profiles flush) and leave.
rl.on('close', async () => {
  await Promise.race([
    Promise.all([...contexts.values()].map((c) => c.context.close().catch(() => {}))),
    sleep(5000),
  ]);
  process.exit(0);
});
out({ ready: true, pid: process.pid });
