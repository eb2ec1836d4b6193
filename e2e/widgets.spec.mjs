// The widget kit on real data: filter drawer, saved common filter, column and page-size settings on /log;
// the operator's dictionaries (/system/dic: ConfigForm + EditableTable dialog, DictSelect preview).
import { join } from 'node:path';
import { ADMIN, artifacts, chinaToday, DEMO, expect, pageToken, pickOption, rowIds, settled, signIn, story, submitUntilShown } from './lib.mjs';

let page;
const { base, browser, step, newContext, newPage, consoleErrors, finish } = await story('widgets', () => page);

// ---- the widget kit on real data: filter drawer, saved common filter, column and page-size settings on /log
let logContext;
let lastLogUrl;
const logCalls = [];
await step('demo filters the operation log by today and result = success', async () => {
  // China time, so "today" is the day the server files today's rows under
  logContext = await newContext({ timezoneId: 'Asia/Shanghai' });
  page = await newPage(logContext);
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (url.pathname === '/api/index/log') logCalls.push(url);
  });
  await signIn(page, 'account', DEMO);
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
  await settled(page);
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
  const dicContext = await newContext();
  page = await newPage(dicContext);
  try {
    const name = `e2e_${Date.now().toString(36)}`;
    await signIn(page, 'account', ADMIN);
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
    // The filtered list is on screen (one row) before the preview opens: a re-render of the rows after
    // the click would close its dropdown.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="dic-row-"]').length === 1);
    const preview = page.getByTestId(`dic-preview-${name}`);
    await preview.click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await options.filter({ hasText: '待处理' }).waitFor();
    await options.filter({ hasText: '已完成' }).waitFor();
    // Read the options as one settled list (a web-first check): the dropdown's virtual list re-renders
    // its items while it opens, so a one-off read right after the waits above can catch it empty.
    const wantTitles = JSON.stringify(["待处理", "已完成"]);
    const settled = await page
      .waitForFunction(
        (w) => {
          const drop = [...document.querySelectorAll('.ant-select-dropdown')].find((d) => d.offsetParent !== null && !d.classList.contains('ant-select-dropdown-hidden'));
          const got = drop ? [...drop.querySelectorAll('.ant-select-item-option')].map((e) => e.getAttribute('title')) : [];
          return JSON.stringify(got) === w;
        },
        wantTitles,
        { timeout: 10_000 },
      )
      .then(() => true, () => false);
    const titles = await options.evaluateAll((els) => els.map((e) => e.getAttribute('title')));
    expect(settled, `preview shows ${JSON.stringify(titles)}`);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(artifacts, 'system-dic-zh-CN.png'), fullPage: true });
  } finally {
    await dicContext.close().catch(() => undefined);
  }
});

await finish();
