// Reports (area `reports`): after videos go out through the sandbox the dashboard draws real series, every
// analytics page and special report renders its charts, and the data screen fills a 1920x1080 window.
// The videos and the release task are made through the API (the matrix story covers making them in the
// console); zh-CN first, then English. Followers are the sandbox's count for the account (its own
// `/_control/followers`), and the data screen draws the account's province on the map of China.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, apiAs, artifacts, colourClips, DEMO, expect, menuPick, pageToken, setLanguage, settled, signIn, signInApi, story, uploadClip, waitReady, sandboxFetch } from './lib.mjs';

let page;
const { base, step, newContext, newPage, finish } = await story('reports', () => page);

const rp = { stamp: Date.now().toString(36), token: null, admin: null, dy: 0, task: 0, variants: [] };
const api = apiAs(base, () => rp.token);

// What the sandbox platform reports as a Douyin account's followers for its clock's China day.
async function platformFollowers(openId) {
  const clock = await (await sandboxFetch(`${base}/sandbox/_control/clock`)).json();
  const today = new Date(clock.now + 8 * 3600_000).toISOString().slice(0, 10);
  return (await sandboxFetch(`${base}/sandbox/_control/followers?platform=dy&open_id=${openId}&day=${today}`)).json();
}

const adminApi = apiAs(base, () => rp.admin);
const media = mkdtempSync(join(tmpdir(), 'clipmatrix-e2e-reports-'));

await step('demo signs in; the dashboard has no publishing data yet', async () => {
  const context = await newContext({ timezoneId: 'Asia/Shanghai' });
  page = await newPage(context);
  await signIn(page, 'account', DEMO);
  rp.token = await pageToken(page);
  expect(rp.token, 'no token in the page');
  await page.goto('/dashboard');
  await page.getByTestId('dashboard-publish').getByText('暂无发布数据').waitFor();
});

await step('three finished videos and a Douyin account (through the API and the sandbox consent page)', async () => {
  const colours = ['red', 'green', 'blue'];
  colourClips(media, colours);
  const group = await api('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name: `报表素材-${rp.stamp}` } });
  const clips = [];
  for (const c of colours) clips.push((await uploadClip(api, media, group.id, `${c}.mp4`, `${c}-${rp.stamp}`)).id);
  await waitReady(api, clips);
  rp.variants = (await api('/clip.merchant_video_library/add', { method: 'POST', body: { ids: clips } })).variant_ids;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows } = await api('/clip.merchant_video_library/index?pageSize=100');
    if (rp.variants.every((id) => rows.find((r) => r.id === id)?.state === 'success')) break;
    expect(Date.now() < deadline, 'imported videos not ready');
    await new Promise((r) => setTimeout(r, 300));
  }
  rmSync(media, { recursive: true, force: true });
  await page.goto('/account_auth');
  await page.getByTestId('auth-dy').click();
  await page.waitForURL((url) => url.pathname.startsWith('/sandbox/dy/'), { timeout: 20_000 });
  await page.locator('#approve').waitFor();
  const [callback] = await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/oauth/dy/callback'), page.locator('#approve').click()]);
  rp.dy = Number(new URL(callback.headers().location ?? '', base).searchParams.get('authorized'));
  expect(rp.dy > 0, `callback went to ${callback.headers().location}`);
  await page.waitForURL((url) => url.pathname === '/account_auth');
  // A province for the data screen's map.
  await api('/task.merchant_group_user/update_address', { method: 'POST', body: { id: rp.dy, province: '浙江省', city: '杭州市' } });
});

await step('a release task of the three videos is approved and the sandbox clock runs it: all three published', async () => {
  const clock = await (await sandboxFetch(`${base}/sandbox/_control/clock`)).json();
  const tomorrow = new Date(clock.now + 8 * 3600_000 + 86_400_000).toISOString().slice(0, 10);
  const created = await api('/task.merchant_forward_task/dy_add', {
    method: 'POST',
    body: {
      name: `报表发布${rp.stamp}`, titles: '春天的第一杯奶茶#周末就来这里', topics: ['探店'], top_comments: '', at_users: [], mount_type: 'none',
      time_mode: 'random', start_date: tomorrow, daily_quantity: 3, days: 1, times: [], account_ids: [rp.dy], video_ids: rp.variants,
    },
  });
  rp.task = created.task.id;
  rp.admin = await signInApi(base, ADMIN);
  await adminApi('/system/audit/approve', { method: 'POST', body: { id: rp.task } });
  await sandboxFetch(`${base}/sandbox/_control/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_ms: 2 * 86_400_000 }) });
  const deadline = Date.now() + 90_000;
  for (;;) {
    const { rows } = await api('/task.merchant_forward_task/forward_video_release', { method: 'POST', body: { task_id: rp.task } });
    expect(!rows.some((r) => r.state === 'failed'), `an item failed: ${JSON.stringify(rows.map((r) => r.error))}`);
    if (rows.length === 3 && rows.every((r) => r.state === 'published' || r.state === 'released')) break;
    expect(Date.now() < deadline, `items: ${JSON.stringify(rows.map((r) => r.state))}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  // The statistics sync after the posts rolls them up into the reports. The followers must be the
  // platform's figure for its today: the sync at authorization recorded a day two days before the clock
  // moved, and the report carries that figure forward until the sync after the posts has run.
  const accounts = await api('/task.merchant_group_user/index', { method: 'POST', body: {} });
  const openId = accounts.rows.find((a) => a.id === rp.dy).open_id;
  const until = Date.now() + 60_000;
  for (;;) {
    const o = await api('/common.merchant_report/overview?platform=dy&span=week');
    rp.followers = o.totals.followers;
    const fans = await platformFollowers(openId);
    if (o.totals.posts === 3 && o.totals.followers === fans.total) break;
    expect(Date.now() < until, `the reports show ${o.totals.posts} posts and ${o.totals.followers} followers (the platform ${fans.total})`);
    await new Promise((r) => setTimeout(r, 1000));
  }
});

await step('the dashboard draws the publishing series (7 and 30 days)', async () => {
  await page.goto('/dashboard');
  await page.getByTestId('chart-publish').waitFor();
  await page.getByTestId('dashboard-days').getByText('近 30 天').click();
  await page.getByTestId('dashboard-publish').getByText('近 30 日发布').waitFor();
  await page.getByTestId('chart-publish').locator('canvas').first().waitFor();
  // hot rankings: today's hot searches from the hot-list cache (its job reads the sandbox at start)
  await page.getByTestId('dashboard-hot').getByText('今日热搜').waitFor();
  await page.getByTestId('dashboard-hot').locator('.ant-list-item').first().waitFor({ timeout: 30_000 });
  await page.screenshot({ path: join(artifacts, 'reports-dashboard-zh-CN.png'), fullPage: true });
});

await step('/dy_num: the figures, the daily and comparison charts, the rankings; the other platforms render empty', async () => {
  await page.goto('/dy_num');
  await page.getByTestId('analytics-dy').waitFor();
  await page.getByTestId('stat-posts').getByText('3').waitFor();
  await page.getByTestId('chart-daily').locator('canvas').first().waitFor();
  await page.getByTestId('chart-compare').locator('canvas').first().waitFor();
  await page.getByText('抖音数据').first().waitFor();
  await page.locator('.ant-table-row').first().waitFor();
  // The account is the sandbox's: the figures say they are simulated, on the page and on its row.
  await page.getByTestId('report-simulated').getByText('模拟数据').waitFor();
  await page.getByTestId(`account-simulated-${rp.dy}`).waitFor();
  // Followers: the platform's own count for the account today, its trend and the gain.
  const accounts = await api('/task.merchant_group_user/index', { method: 'POST', body: {} });
  const openId = accounts.rows.find((a) => a.id === rp.dy).open_id;
  const fans = await platformFollowers(openId);
  expect(fans.total === rp.followers, `the report says ${rp.followers} followers, the platform ${fans.total}`);
  await page.getByTestId('stat-followers').getByText(fans.total.toLocaleString('en-US')).waitFor();
  await page.getByTestId('stat-followers-card').getByText('粉丝数').waitFor();
  await page.getByTestId('stat-follower-gain').getByText(/^本期 \+/).waitFor();
  await page.getByTestId('analytics-followers').getByText('粉丝趋势').waitFor();
  await page.getByTestId('chart-followers').locator('canvas').first().waitFor();
  await page.screenshot({ path: join(artifacts, 'reports-dy-num-zh-CN.png'), fullPage: true });
  for (const [path, id] of [['/ks_num', 'ks'], ['/dd_num', 'dd'], ['/video_num', 'video'], ['/xhs_num', 'xhs']]) {
    await page.goto(path);
    await page.getByTestId(`analytics-${id}`).waitFor();
    await page.getByTestId('chart-compare').locator('canvas').first().waitFor();
  }
});

await step('the special reports: delivery, Douyin videos, staff activity, material performance', async () => {
  await page.goto('/special');
  await page.getByTestId('chart-delivery').locator('canvas').first().waitFor();
  await page.getByText(`报表发布${rp.stamp}`).first().waitFor();
  await page.goto('/specialdyvideo');
  await page.getByTestId('chart-dy-videos').locator('canvas').first().waitFor();
  await page.goto('/special2');
  await page.getByTestId('chart-staff').locator('canvas').first().waitFor();
  await page.goto('/xzsspecial');
  await page.getByTestId('special-attribution').waitFor();
  await page.getByTestId('attribution-dimension').getByText('镜头素材').waitFor();
  await page.goto('/special');
  await page.getByTestId('chart-delivery').locator('canvas').first().waitFor();
  await settled(page);
  const [download, response] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.waitForResponse((r) => r.url().includes('/common.merchant_report/export'), { timeout: 60_000 }),
    menuPick(page, 'export-delivery', '导出 Excel'),
  ]);
  expect(response.status() === 200, `the export answered ${response.status()}`);
  expect(download.suggestedFilename().endsWith('.xlsx'), `file ${download.suggestedFilename()}`);
  const head = readFileSync(await download.path()).subarray(0, 2).toString();
  expect(head === 'PK', `not a zip: ${head}`);
});

await step('/actual_screen at 1920x1080: counters, charts, top videos; a screenshot', async () => {
  const tv = await newContext({ viewport: { width: 1920, height: 1080 }, timezoneId: 'Asia/Shanghai' });
  const screenPage = await newPage(tv);
  await signIn(screenPage, 'account', DEMO);
  await screenPage.goto('/actual_screen');
  await screenPage.getByTestId('data-screen').waitFor();
  await screenPage.getByTestId('screen-accounts').getByText('1').first().waitFor();
  await screenPage.getByTestId('chart-screen-week').locator('canvas').first().waitFor();
  await screenPage.getByTestId('screen-today').getByText('3').first().waitFor();
  await screenPage.getByTestId('screen-week-posts').getByText('3').first().waitFor();
  await screenPage.getByTestId('screen-progress').waitFor();
  await screenPage.getByTestId('screen-followers').getByText('粉丝总数').waitFor();
  await screenPage.getByTestId('chart-screen-map').locator('canvas').first().waitFor();
  // the top list fills in after the counters: wait for its third row, then check there are no more
  await screenPage.getByTestId('screen-top').locator('li').nth(2).waitFor();
  expect((await screenPage.getByTestId('screen-top').locator('li').count()) === 3, 'the top videos are not the three');
  const box = await screenPage.getByTestId('data-screen').boundingBox();
  expect(box && box.width === 1920 && box.height === 1080, `the screen is ${JSON.stringify(box)}`);
  await screenPage.screenshot({ path: join(artifacts, 'reports-actual-screen-1920x1080-zh-CN.png') });
  await tv.close();
});

await step('the pages in English', async () => {
  await page.goto('/dashboard');
  await setLanguage(page, 'en');
  await page.getByTestId('dashboard-publish').getByText(/Publishing, last (7|30) days/).waitFor();
  await page.goto('/dy_num');
  await page.getByText('Douyin data').first().waitFor();
  await page.getByText('Account ranking').waitFor();
  await page.getByTestId('chart-daily').locator('canvas').first().waitFor();
  await page.getByTestId('stat-followers-card').getByText('Followers').waitFor();
  await page.getByTestId('stat-follower-gain').getByText(/^\+[\d,]+ in this period$/).waitFor();
  await page.getByTestId('analytics-followers').getByText('Followers per day').waitFor();
  await page.getByTestId('chart-followers').locator('canvas').first().waitFor();
  await page.screenshot({ path: join(artifacts, 'reports-dy-num-en.png'), fullPage: true });
  await page.goto('/actual_screen');
  await page.getByText('Matrix data screen').waitFor();
});

await finish();
