// Activities and NFC (areas `activities` and `nfc`, one story: a shop's counter tag unlocks its lottery).
// The merchant sets up a lottery activity on /Events and a tag on /nfc with titles; a phone-sized browser
// (390×844) opens the tag's address, posts the video through the sandbox's Douyin page, draws and sees
// its coupon; the merchant redeems the coupon at the counter, reads the draw log and exports it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiAs, artifacts, colourClips, DEMO, dialogReady, expect, pageToken, setLanguage, signIn, story, uploadClip, waitReady } from './lib.mjs';

let page;
let phone;
const { base, step, newContext, newPage, finish } = await story('nfc', () => phone ?? page);

const nf = { stamp: Date.now().toString(36), token: null, activity: 0, tag: 0, url: '', code: '' };
nf.activityName = `开业抽奖${nf.stamp}`;
nf.groupName = `门店视频${nf.stamp}`;
nf.tagName = `收银台${nf.stamp}`;
const apiCall = apiAs(base, () => nf.token);
const media = mkdtempSync(join(tmpdir(), 'clipmatrix-e2e-nfc-'));

await step('demo has a video-library group of three ready videos (through the API)', async () => {
  const context = await newContext();
  page = await newPage(context);
  await signIn(page, 'account', DEMO);
  nf.token = await pageToken(page);
  expect(nf.token, 'no token in the page');
  const colours = ['red', 'green', 'blue'];
  colourClips(media, colours);
  const group = await apiCall('/media.merchant_much_resource/resource_group_add', { method: 'POST', body: { name: nf.groupName } });
  nf.group = group.id;
  const ids = [];
  for (const c of colours) ids.push((await uploadClip(apiCall, media, group.id, `${c}.mp4`, `${c}-${nf.stamp}`)).id);
  await waitReady(apiCall, ids);
  rmSync(media, { recursive: true, force: true });
});

await step('/Events: demo adds a lottery for customers who post, one coupon prize at 100%', async () => {
  await page.goto('/Events');
  await page.getByTestId('events-page').waitFor();
  await page.getByTestId('activity-add').click();
  await dialogReady(page, 'activity-form-wrap');
  await page.getByTestId('activity-form-name').fill(nf.activityName);
  await page.getByTestId('activity-form-who-posters').click();
  await page.getByTestId('prize-name-0').fill('到店免单券');
  const odds = page.getByTestId('prize-odds-0');
  const oddsInput = (await odds.evaluate((e) => e.tagName)) === 'INPUT' ? odds : odds.locator('input').first();
  // Over 100% is refused in the form before anything is sent.
  await oddsInput.fill('120');
  await oddsInput.press('Tab');
  await page.getByTestId('prizes-thanks').waitFor();
  await oddsInput.fill('100');
  await oddsInput.press('Tab');
  const [saved] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/task.merchant_forward_task_activities/add')),
    page.getByTestId('activity-form-ok').click(),
  ]);
  const body = await saved.json();
  expect(body.code === 200, `add answered ${JSON.stringify(body).slice(0, 300)}`);
  nf.activity = body.data.id;
  nf.activityKey = body.data.public_url.split('/').pop();
  await page.getByTestId(`activities-row-${nf.activity}`).waitFor();
  await page.getByTestId(`activity-state-${nf.activity}`).getByText('进行中').waitFor();
  await page.screenshot({ path: join(artifacts, 'nfc-events-zh-CN.png'), fullPage: true });
});

await step('/nfc: demo adds a tag over the group with the activity, and two titles', async () => {
  await page.goto('/nfc');
  await page.getByTestId('nfc-page').waitFor();
  await page.getByTestId('tag-add').click();
  await dialogReady(page, 'tag-form-wrap');
  await page.getByTestId('tag-form-name').fill(nf.tagName);
  await page.getByTestId('tag-form-pool-kind-group').click();
  await page.getByTestId('tag-form-pool').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: nf.groupName }).first().click();
  await page.getByTestId('tag-form-activity').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: nf.activityName }).first().click();
  const [saved] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/nfc.index/add')),
    page.getByTestId('tag-form-ok').click(),
  ]);
  const body = await saved.json();
  expect(body.code === 200, `add answered ${JSON.stringify(body).slice(0, 300)}`);
  nf.tag = body.data.id;
  nf.url = body.data.url;
  await page.getByTestId(`tags-row-${nf.tag}`).waitFor();
  await page.locator(`[data-testid="tag-left-${nf.tag}"]`).getByText('3').first().waitFor();
  await page.getByTestId(`tag-titles-${nf.tag}`).click();
  await dialogReady(page, 'titles-dialog-wrap');
  // A line over 50 characters is named before anything is sent.
  await page.getByTestId('titles-textarea').fill(`来打卡${nf.stamp}\n${'长'.repeat(51)}`);
  await page.getByTestId('title-problem-2').waitFor();
  await page.getByTestId('titles-textarea').fill(`来打卡${nf.stamp}\n好吃不贵${nf.stamp}`);
  await page.getByTestId('titles-add').click();
  await page.getByText(`好吃不贵${nf.stamp}`).waitFor();
  await page.getByTestId('titles-dialog-wrap').locator('.ant-modal-close').click();
  await page.getByTestId('titles-dialog-wrap').locator('.ant-modal').waitFor({ state: 'hidden' });
});

await step('a phone taps the tag: a video, a title, and "post to Douyin"', async () => {
  const mobile = await newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  phone = await newPage(mobile);
  const path = new URL(nf.url).pathname;
  await phone.goto(path);
  await phone.getByTestId('tap-video').waitFor();
  const title = await phone.getByTestId('tap-title').textContent();
  expect([`来打卡${nf.stamp}`, `好吃不贵${nf.stamp}`].includes(title), `title ${title}`);
  const schema = await phone.getByTestId('post-douyin').getAttribute('href');
  expect(schema?.startsWith('snssdk1128://openplatform/share?'), `share link ${schema}`);
  await phone.getByTestId('draw').waitFor();
  expect(await phone.getByTestId('draw').isDisabled(), 'the draw is locked before posting');
  await phone.getByTestId('draw-hint').getByText('发布视频后即可抽奖').waitFor();
  nf.sandboxPage = await phone.getByTestId('sandbox-publish').getAttribute('href');
  await phone.screenshot({ path: join(artifacts, 'nfc-tap-mobile-zh-CN.png'), fullPage: true });
});

await step('the customer posts in (the sandbox\'s) Douyin; the tap page unlocks the draw and shows the coupon', async () => {
  const douyin = await newPage(phone.context());
  await douyin.goto(nf.sandboxPage);
  await douyin.getByTestId('h5-publish').click();
  await douyin.getByTestId('h5-result').getByText('已发布').waitFor();
  await douyin.close();
  await phone.getByTestId('post-state').getByText('已发布').waitFor({ timeout: 30_000 });
  await phone.waitForFunction(() => !document.querySelector('[data-testid="draw"]')?.disabled, null, { timeout: 15_000 });
  await phone.getByTestId('draw').click();
  await phone.getByTestId('draw-won').waitFor();
  nf.code = (await phone.getByTestId('coupon-code').textContent())?.trim();
  expect(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/.test(nf.code ?? ''), `coupon code ${nf.code}`);
  await phone.screenshot({ path: join(artifacts, 'nfc-coupon-mobile-zh-CN.png'), fullPage: true });
  // One post, one draw.
  expect(await phone.getByTestId('draw').isDisabled(), 'a second draw is locked');
});

await step('the tap page in English', async () => {
  // Coming back the same day shows the post and its coupon again (no second video taken).
  await phone.goto(`${new URL(nf.url).pathname}?lang=en`);
  await phone.getByTestId('post-state').getByText('Posted, thank you for sharing!').waitFor();
  await phone.getByText('My coupons').waitFor();
  await phone.getByTestId('my-coupon').getByText(nf.code).waitFor();
  await phone.screenshot({ path: join(artifacts, 'nfc-tap-mobile-en.png'), fullPage: true });
  await phone.context().close();
  phone = undefined;
});

await step('/Events: demo redeems the coupon at the counter; the draw log shows the draw and exports', async () => {
  await page.goto('/Events');
  await page.getByTestId('tab-coupons').click();
  await page.getByTestId('redeem-code').fill(nf.code.toLowerCase().replaceAll('-', ' '));
  await page.getByTestId('redeem-submit').click();
  await page.getByTestId('redeem-result').waitFor();
  await page.getByTestId(`coupon-state-${nf.code}`).getByText('已核销').waitFor();
  // A second time is refused with when and by whom.
  await page.getByTestId('redeem-code').fill(nf.code);
  await page.getByTestId('redeem-submit').click();
  await page.getByText('该券已于').first().waitFor();
  await page.getByTestId('tab-draws').click();
  await page.getByText(nf.code).first().waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-xlsx').first().click()]);
  expect(download.suggestedFilename().endsWith('.xlsx'), `file ${download.suggestedFilename()}`);
  const file = await download.path();
  const head = readFileSync(file).subarray(0, 2).toString();
  expect(head === 'PK', `not a zip: ${head}`);
  await page.screenshot({ path: join(artifacts, 'nfc-draw-log-zh-CN.png'), fullPage: true });
});

await step('/nfc figures and the pages in English', async () => {
  await page.goto('/nfc');
  await page.getByTestId(`tag-stats-${nf.tag}`).click();
  await page.getByTestId('stats-dialog-wrap').waitFor();
  await page.getByTestId('stats-total-posts').getByText('1').first().waitFor();
  await page.getByTestId('stats-total-redeemed').getByText('1').first().waitFor();
  await page.getByTestId('stats-chart').waitFor();
  await page.getByTestId('stats-dialog-wrap').locator('.ant-modal-close').click();
  await setLanguage(page, 'en');
  await page.getByTestId('page-title').getByText('NFC tap-to-post').waitFor();
  await page.locator(`[data-testid="tag-left-${nf.tag}"]`).getByText('2').first().waitFor();
  await page.screenshot({ path: join(artifacts, 'nfc-tags-en.png'), fullPage: true });
  await page.goto('/Events');
  await page.getByTestId('page-title').getByText('Lottery activities').waitFor();
  await page.getByTestId(`activity-state-${nf.activity}`).getByText('Running').waitFor();
});

await finish();
