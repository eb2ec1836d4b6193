// Layout at 1440×900 in both languages: every list page of the merchant and of the operator (the pages
// of their menu trees that show a table) keeps every column reachable — no header cut short, no column
// that stays under a fixed column however the table is scrolled, no cell whose content spills out of
// it, no dimension ("1080×1920") broken over two lines — and no table wider than its card. The data
// screen fits the window without scrolling. One server, one browser, the pages visited in a loop.
import { ADMIN, apiAs, DEMO, expect, pageToken, setLanguage, settled, signIn, story } from './lib.mjs';

let page;
const { base, step, newContext, newPage, finish } = await story('layout', () => page);

const VIEWPORT = { width: 1440, height: 900 };

/** The paths of a menu tree, hidden entries included (they are pages the user may open too). */
function menuPaths(nodes) {
  return nodes.flatMap((n) => [...(n.path && !/^https?:/.test(n.path) && !n.path.includes(':') ? [n.path] : []), ...menuPaths(n.children ?? [])]);
}

/**
 * Shows `path` as a click in the menu would (the router's own navigation), not by loading the console
 * again: a page load for each of the menu's paths, in two languages for two users, was most of this
 * story's CPU. Waits until the page area shown before is gone (it is keyed by the path).
 */
async function openInApp(page, path) {
  const moved = await page.evaluate((p) => {
    const to = new URL(p, location.href);
    if (to.pathname === location.pathname) return false;
    window.__shownPage = document.querySelector('[data-testid="page-content"]');
    history.pushState(null, '', to.pathname + to.search);
    dispatchEvent(new PopStateEvent('popstate'));
    return true;
  }, path);
  if (!moved) {
    await page.goto(path);
    return;
  }
  await page.waitForFunction(
    () => !window.__shownPage?.isConnected,
    undefined,
    { timeout: 30_000, polling: 100 },
  );
}

/** What is wrong with the tables of the page shown (runs in the page). */
async function tableProblems() {
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const label = (el) => (el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 40);
  // How far the content of a cell reaches past the cell's right edge, padding included. Measured on the
  // content (elements and text), not scrollWidth: a fixed column's shadow is a pseudo-element that
  // reaches 30 px beyond it. Content inside an element that clips (ellipsis) counts as that element.
  const spill = (cell) => {
    const right = cell.getBoundingClientRect().right;
    let reach = -Infinity;
    const walk = (node) => {
      for (const child of node.childNodes) {
        if (child.nodeType === Node.TEXT_NODE) {
          if (!child.textContent.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(child);
          for (const r of range.getClientRects()) if (r.width) reach = Math.max(reach, r.right);
        } else if (child.nodeType === Node.ELEMENT_NODE) {
          const style = getComputedStyle(child);
          if (style.display === 'none' || style.position === 'absolute' || style.position === 'fixed') continue;
          const r = child.getBoundingClientRect();
          if (r.width) reach = Math.max(reach, r.right);
          if (style.overflowX === 'visible') walk(child);
        }
      }
    };
    walk(cell);
    return Math.round(reach - right);
  };
  const problems = [];
  const overflowX = document.scrollingElement.scrollWidth - window.innerWidth;
  if (overflowX > 1) problems.push(`the page scrolls sideways by ${overflowX}px`);
  const wrappers = [...document.querySelectorAll('.ant-table-wrapper')].filter(
    (w) => shown(w) && !w.closest('.ant-modal-wrap, .ant-drawer, .ant-popover, .ant-select-dropdown, .ant-dropdown') && !w.parentElement.closest('.ant-table-wrapper'),
  );
  for (const [n, wrap] of wrappers.entries()) {
    const name = wrap.closest('[data-testid]')?.dataset.testid ?? `table ${n + 1}`;
    // the table stays inside its card (or the page's content area)
    const box = wrap.parentElement.closest('.ant-card-body, .ant-tabs-content, .ant-layout-content');
    const table = wrap.querySelector('.ant-table') ?? wrap;
    if (box) {
      const over = Math.round(Math.max(wrap.getBoundingClientRect().right, table.getBoundingClientRect().right) - box.getBoundingClientRect().right);
      if (over > 1) problems.push(`${name}: the table overflows its card by ${over}px`);
    }
    // the horizontal scroller of the table (antd: .ant-table-content, or .ant-table-body with a fixed header)
    const scroller = wrap.querySelector('.ant-table-content, .ant-table-body') ?? table;
    const head = [...wrap.querySelectorAll('thead th')].filter((th) => shown(th) && label(th) && !th.matches('.ant-table-selection-column, .ant-table-row-expand-icon-cell'));
    const fixedLeft = head.filter((th) => th.classList.contains('ant-table-cell-fix-left') || th.classList.contains('ant-table-cell-fix-start'));
    const fixedRight = head.filter((th) => th.classList.contains('ant-table-cell-fix-right') || th.classList.contains('ant-table-cell-fix-end'));
    const leftW = fixedLeft.reduce((s, th) => s + th.getBoundingClientRect().width, 0);
    const rightW = fixedRight.reduce((s, th) => s + th.getBoundingClientRect().width, 0);
    // measured at scrollLeft 0, in the scroller's content coordinates
    scroller.scrollLeft = 0;
    scroller.dispatchEvent(new Event('scroll'));
    await frame();
    const origin = scroller.getBoundingClientRect().left;
    const viewW = scroller.clientWidth;
    const maxScroll = Math.max(0, scroller.scrollWidth - scroller.clientWidth);
    for (const th of head) {
      const text = label(th);
      // a header on one line, not cut ("Delet", "Lo…")
      // (a sortable header's title clips with an ellipsis; any other header's text spills out of it)
      const title = th.querySelector('.ant-table-column-title') ?? th;
      const cut = title === th ? spill(th) : title.scrollWidth - title.clientWidth;
      if (cut > 1) problems.push(`${name}: header "${text}" is cut by ${cut}px`);
      const range = document.createRange();
      range.selectNodeContents(title);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) problems.push(`${name}: header "${text}" wraps over ${lines.size} lines`);
      if (fixedLeft.includes(th) || fixedRight.includes(th)) continue;
      // some scroll position shows the whole column between the fixed ones
      const r = th.getBoundingClientRect();
      const left = r.left - origin;
      const need = [Math.max(0, r.right - origin - (viewW - rightW)), Math.min(maxScroll, left - leftW)];
      if (need[0] > need[1] + 1) problems.push(`${name}: column "${text}" stays under a fixed column (${Math.round(need[0] - need[1])}px)`);
    }
    // cells: content that spills out of its cell (an audio player wider than its column), dimensions on one line
    const rows = [...wrap.querySelectorAll('tbody tr.ant-table-row')].slice(0, 5);
    for (const tr of rows) {
      for (const td of tr.querySelectorAll('td')) {
        if (!shown(td) || td.matches('.ant-table-cell-ellipsis, .ant-table-selection-column')) continue;
        const over = spill(td);
        if (over > 1) problems.push(`${name}: a cell of column ${td.cellIndex + 1} ("${label(td)}") spills out by ${over}px`);
        const text = (td.textContent || '').trim();
        if (/^\d{2,5}\s*[×xX*]\s*\d{2,5}$/.test(text)) {
          const range = document.createRange();
          range.selectNodeContents(td);
          const lines = new Set([...range.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
          if (lines.size > 1) problems.push(`${name}: "${text}" wraps`);
        }
      }
    }
  }
  return { tables: wrappers.length, problems };
}

const found = [];
const visited = [];
for (const [who, user] of [
  ['merchant', DEMO],
  ['operator', ADMIN],
]) {
  let context;
  let paths = [];
  await step(`${who} signs in at 1440×900`, async () => {
    context = await newContext({ viewport: VIEWPORT, timezoneId: 'Asia/Shanghai' });
    page = await newPage(context);
    await signIn(page, 'account', user);
    const token = await pageToken(page);
    const init = await apiAs(base, () => token)('/ajax/initAdmin');
    paths = [...new Set(menuPaths(init.menu))];
    expect(paths.length > 5, `${who}: only ${paths.length} menu paths`);
  });
  for (const lng of ['zh-CN', 'en']) {
    await step(`${who}, ${lng}: every list page fits 1440×900`, async () => {
      if (lng === 'en') await setLanguage(page, 'en');
      for (const path of paths) {
        await openInApp(page, path);
        await settled(page, { quietMs: 300, timeout: 30_000 });
        // the rows have arrived (a table shows a spinner until they do) ...
        await page.waitForFunction(() => !document.querySelector('.ant-table-wrapper .ant-spin-spinning'), undefined, { timeout: 30_000 });
        // ... and tables draw their fixed-column shadows and widths after the rows arrive
        await page.waitForTimeout(150);
        const { tables, problems } = await page.evaluate(tableProblems);
        if (tables) visited.push(`${who} ${lng} ${path}`);
        for (const p of problems) {
          found.push(`${who} ${lng} ${path}: ${p}`);
          console.log(`${who} ${lng} ${path}: ${p}`);
        }
      }
    });
  }
  await step(`${who}: the data screen fits 1440×900 in both languages`, async () => {
    if (who !== 'merchant') return;
    for (const lng of ['en', 'zh-CN']) {
      if (lng === 'zh-CN') {
        // the screen covers the console's header: switch where the switch is
        await page.goto('/dashboard');
        await settled(page);
        await setLanguage(page, 'zh-CN');
      }
      // a full board: a TOP 10 of long titles, seven-digit figures, ten provinces (a fresh install has none)
      await page.route('**/api/databoard.index/index*', async (route) => {
        const res = await route.fetch();
        const env = await res.json();
        const d = env.data;
        const big = (i) => 1_234_567 + i * 98_765;
        d.week.plays = d.week.days.map((_, i) => big(i));
        d.week.likes = d.week.days.map((_, i) => big(i) / 10);
        d.week.posts = d.week.days.map((_, i) => 120 + i);
        d.week.follower_gain = d.week.days.map((_, i) => 3_456 + i);
        d.week_totals = { ...d.week_totals, plays: 98_765_432, likes: 9_876_543, posts: 1_234, followers: 12_345_678 };
        d.accounts = 1_234;
        d.active_accounts = 1_200;
        d.today_planned = 60;
        d.today_published = 40;
        d.today_failed = 3;
        // posts due on other days went out today too: the panel says how many
        d.today_posts = 52;
        d.today_posts_other_days = 12;
        d.top = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, title: `夏季新款防晒帽 UPF50+ 宽檐遮脸遮脖子 可折叠 门店周末买一送一 第 ${i + 1} 条`, plays: 9_876_543 - i * 12_345, likes: 12_345, comments: 678, shares: 90, platform: 'dy', nickname: '防晒帽旗舰店', account_id: 1, published_at: d.updated_at }));
        d.regions = ['广东省', '浙江省', '北京市', '上海市', '江苏省', '四川省', '湖北省', '山东省', '福建省', '河南省'].map((province, i) => ({ province, plays: 1_000_000 * (10 - i), accounts: 10 - i }));
        await route.fulfill({ response: res, json: env });
      });
      await page.goto('/actual_screen');
      await page.getByTestId('data-screen').waitFor();
      await settled(page, { timeout: 20_000 });
      await page.waitForTimeout(500); // the charts draw after their data
      const problems = await page.evaluate(() => {
        const out = [];
        const doc = document.scrollingElement;
        if (doc.scrollWidth > innerWidth + 1 || doc.scrollHeight > innerHeight + 1) out.push(`the page scrolls (${doc.scrollWidth}×${doc.scrollHeight})`);
        const root = document.querySelector('[data-testid="data-screen"]');
        const nameOf = (el) => el.dataset?.testid ?? el.getAttribute('class') ?? el.tagName;
        for (const el of root.querySelectorAll('*')) {
          const r = el.getBoundingClientRect();
          if (!r.width || !r.height) continue;
          if (r.right > innerWidth + 1 || r.bottom > innerHeight + 1) out.push(`${nameOf(el)} ends at ${Math.round(r.right)}×${Math.round(r.bottom)}`);
          const style = getComputedStyle(el);
          if (['auto', 'scroll'].includes(style.overflowY) && el.scrollHeight > el.clientHeight + 1) out.push(`${nameOf(el)} scrolls`);
          if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1) out.push(`${nameOf(el)} scrolls sideways`);
          // nothing cut off by a panel that clips it (an SVG's own shapes aside)
          if (!(el instanceof HTMLElement)) continue;
          let clip = el.parentElement;
          while (clip && clip !== root && getComputedStyle(clip).overflow === 'visible') clip = clip.parentElement;
          if (clip && clip !== root) {
            const c = clip.getBoundingClientRect();
            if (r.bottom > c.bottom + 1 || r.right > c.right + 1) out.push(`${nameOf(el)} is cut off by ${nameOf(clip)}`);
          }
        }
        // the TOP 10 shows ten rows, each title on one line
        const rows = [...root.querySelectorAll('[data-testid="screen-top"] li')];
        if (rows.length !== 10) out.push(`the TOP 10 shows ${rows.length} rows`);
        return out.slice(0, 10);
      });
      await page.unroute('**/api/databoard.index/index*');
      for (const p of problems) {
        found.push(`${who} ${lng} /actual_screen: ${p}`);
        console.log(`${who} ${lng} /actual_screen: ${p}`);
      }
    }
  });
  await step(`${who}: signs out`, async () => {
    await context.close();
  });
}

await step('no list page hides a column, cuts a header or overflows its card', async () => {
  console.log(`tables checked on ${visited.length} pages`);
  expect(visited.length > 20, `only ${visited.length} pages showed a table`);
  expect(found.length === 0, `${found.length} layout problems:\n  ${found.join('\n  ')}`);
});

await finish();
